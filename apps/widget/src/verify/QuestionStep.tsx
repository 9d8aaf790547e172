import type { TVerificationSession } from '@credit/contract';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { announce } from '../a11y/announcer.tsx';
import { useMessages } from '../i18n/index.ts';
import { Button } from '../ui/Button.tsx';
import { messages } from './messages.ts';

type Question = TVerificationSession['questions'][number];

export interface QuestionStepProps {
  question: Question;
  /** 0-based. */
  index: number;
  total: number;
  selected: string | undefined;
  onSelect(answerId: string): void;
  onBack(): void;
  /** Next question, or send the answers on the last one. */
  onNext(): void;
  submitting: boolean;
}

/** One question per step: the step heading takes focus so "Question 2 of 3" is announced on every change. */
export function QuestionStep({ question, index, total, selected, onSelect, onBack, onNext, submitting }: QuestionStepProps) {
  const t = useMessages(messages);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [missing, setMissing] = useState(false);
  const errorId = useId();
  const legendId = useId();
  const last = index === total - 1;

  // Each step is a fresh mount (keyed by session and step), so this runs on every step change.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!selected) {
      setMissing(true);
      announce(t.chooseAnswer);
      document.getElementById(`${legendId}-opt-0`)?.focus();
      return;
    }
    onNext();
  };

  return (
    <form className="cw-question" onSubmit={submit} noValidate>
      <h2 ref={headingRef} tabIndex={-1} className="cw-question__progress">
        {t.progress(index + 1, total)}
      </h2>
      <div className="cw-question__bar" aria-hidden="true">
        <span style={{ width: `${((index + 1) / total) * 100}%` }} />
      </div>
      <fieldset
        className={`cw-question__options ${missing ? 'cw-question__options--invalid' : ''}`}
        aria-describedby={missing ? errorId : undefined}
        aria-invalid={missing || undefined}
      >
        <legend id={legendId} className="cw-question__text">
          {question.text}
        </legend>
        {question.options.map((option, i) => (
          <label key={option.id} className={`cw-option ${selected === option.id ? 'cw-option--selected' : ''}`}>
            <input
              id={`${legendId}-opt-${i}`}
              type="radio"
              name={question.questionId}
              value={option.id}
              checked={selected === option.id}
              onChange={() => {
                setMissing(false);
                onSelect(option.id);
              }}
            />
            <span>{option.text}</span>
          </label>
        ))}
        {missing ? (
          <p id={errorId} className="cw-field__error">
            <span aria-hidden="true">⚠ </span>
            {t.chooseAnswer}
          </p>
        ) : null}
      </fieldset>
      <div className="cw-question__actions">
        {index > 0 ? (
          <Button variant="secondary" onClick={onBack} disabled={submitting}>
            {t.back}
          </Button>
        ) : null}
        <Button type="submit" loading={submitting}>
          {last ? (submitting ? t.submitting : t.submit) : t.next}
        </Button>
      </div>
    </form>
  );
}
