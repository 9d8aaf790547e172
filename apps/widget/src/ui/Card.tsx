import { type ReactNode, type Ref, useId } from 'react';

export interface CardProps {
  /** A heading shown at the top; a "section" card is then a region labelled by it. */
  title?: ReactNode;
  titleLevel?: 2 | 3 | 4;
  as?: 'section' | 'div' | 'article' | 'li';
  /** Right side of the title row (a badge, a small button). */
  aside?: ReactNode;
  className?: string;
  id?: string;
  /** Given, the heading can take focus (tabIndex -1), to move the reader to this card. */
  titleRef?: Ref<HTMLHeadingElement>;
  children?: ReactNode;
}

export function Card({ title, titleLevel = 2, as: Tag = 'div', aside, className, id, titleRef, children }: CardProps) {
  const headingId = useId();
  const Heading = titleLevel === 2 ? 'h2' : titleLevel === 3 ? 'h3' : 'h4';
  return (
    <Tag className={`cw-card ${className ?? ''}`} id={id} aria-labelledby={title && Tag === 'section' ? headingId : undefined}>
      {title || aside ? (
        <div className="cw-card__header">
          {title ? (
            <Heading className="cw-card__title" id={headingId} ref={titleRef} tabIndex={titleRef ? -1 : undefined}>
              {title}
            </Heading>
          ) : null}
          {aside ? <div className="cw-card__aside">{aside}</div> : null}
        </div>
      ) : null}
      {children}
    </Tag>
  );
}
