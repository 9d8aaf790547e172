import type { ButtonHTMLAttributes, ReactNode } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** primary: the one main action; secondary: outlined; ghost: quiet (Close, Show as table); link: looks like a link. */
  variant?: 'primary' | 'secondary' | 'ghost' | 'link';
  /** md is 44 px tall, sm 32 px: both above the 24 px minimum target. */
  size?: 'md' | 'sm';
  /** Shows a busy state, keeps the label for screen readers, and blocks double submits. */
  loading?: boolean;
  fullWidth?: boolean;
  children: ReactNode;
}

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  fullWidth = false,
  type = 'button',
  className,
  disabled,
  children,
  ...rest
}: ButtonProps) {
  const classes = [
    'cw-button',
    `cw-button--${variant}`,
    `cw-button--${size}`,
    fullWidth ? 'cw-button--full' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button type={type} className={classes} disabled={disabled || loading} aria-busy={loading || undefined} {...rest}>
      {loading ? <span className="cw-button__spinner" aria-hidden="true" /> : null}
      <span>{children}</span>
    </button>
  );
}
