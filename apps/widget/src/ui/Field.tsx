import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';

interface FieldFrameProps {
  label: ReactNode;
  hint?: ReactNode;
  /** The problem with the current value; linked to the control with aria-describedby. */
  error?: string | null;
  children: (control: { id: string; labelId: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
  id?: string;
  /** Added to the frame's own class (a field laid out differently, such as an amount with a slider). */
  className?: string;
}

/** Label, hint, control and error message, wired for screen readers (WCAG 1.3.1, 3.3.1, 3.3.2). */
export function FieldFrame({ label, hint, error, children, id, className }: FieldFrameProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : '';
  const errorId = error ? `${controlId}-error` : '';
  const labelId = `${controlId}-label`;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`cw-field ${className ?? ''} ${error ? 'cw-field--invalid' : ''}`}>
      <label className="cw-field__label" id={labelId} htmlFor={controlId}>
        {label}
      </label>
      {hint ? (
        <p className="cw-field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {children({ id: controlId, labelId, describedBy, invalid: Boolean(error) })}
      {error ? (
        <p className="cw-field__error" id={errorId}>
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  id?: string;
};

export function TextField({ label, hint, error, id, className, ...input }: TextFieldProps) {
  return (
    <FieldFrame label={label} hint={hint} error={error} id={id}>
      {({ id: controlId, describedBy, invalid }) => (
        <input
          {...input}
          id={controlId}
          className={`cw-input ${className ?? ''}`}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
        />
      )}
    </FieldFrame>
  );
}

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  id?: string;
  children: ReactNode;
};

export function SelectField({ label, hint, error, id, className, children, ...select }: SelectFieldProps) {
  return (
    <FieldFrame label={label} hint={hint} error={error} id={id}>
      {({ id: controlId, describedBy, invalid }) => (
        <select
          {...select}
          id={controlId}
          className={`cw-input cw-select ${className ?? ''}`}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
        >
          {children}
        </select>
      )}
    </FieldFrame>
  );
}
