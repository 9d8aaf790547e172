import { FieldFrame } from '../ui/Field.tsx';
import type { AmountRange } from './actions.ts';

export interface AmountFieldProps {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | null | undefined;
  /** The number field's text; the slider follows it, clamped to its span. */
  value: string;
  onChange(value: string): void;
  range: AmountRange;
  /** How a figure reads: "$2,000", "12". */
  format(value: number): string;
}

/**
 * One figure, set by dragging or by typing: a slider for a quick feel and a number field for an exact figure
 * (or one past the slider's end). Both carry the same name, hint and error; the slider also says its value in
 * words ("$2,000", not "2000").
 */
export function AmountField({ id, label, hint, error, value, onChange, range, format }: AmountFieldProps) {
  const typed = Number(value.replace(/[\s,$]/g, ''));
  const sliderValue = value.trim() !== '' && Number.isFinite(typed) ? Math.min(range.max, Math.max(range.min, typed)) : range.min;
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} className="cw-amount">
      {({ labelId, describedBy, invalid }) => (
        <>
          <div className="cw-amount__controls">
            <div className="cw-amount__number">
              {range.kind === 'currency' ? (
                <span className="cw-amount__prefix" aria-hidden="true">
                  $
                </span>
              ) : null}
              <input
                id={id}
                type="number"
                inputMode={range.kind === 'months' ? 'numeric' : 'decimal'}
                className={`cw-input ${range.kind === 'currency' ? 'cw-amount__input--currency' : ''}`}
                min={range.min}
                max={range.limit}
                step={range.kind === 'months' ? 1 : 'any'}
                value={value}
                onChange={(event) => onChange(event.target.value)}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
              />
            </div>
            <input
              type="range"
              className="cw-range"
              min={range.min}
              max={range.max}
              step={range.step}
              value={sliderValue}
              onChange={(event) => onChange(event.target.value)}
              aria-labelledby={labelId}
              aria-describedby={describedBy}
              aria-valuetext={format(sliderValue)}
            />
          </div>
          <div className="cw-range__ends" aria-hidden="true">
            <span>{format(range.min)}</span>
            <span>{format(range.max)}</span>
          </div>
        </>
      )}
    </FieldFrame>
  );
}
