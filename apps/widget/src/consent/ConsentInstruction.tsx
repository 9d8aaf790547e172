import { forwardRef, useId } from 'react';
import { useWidgetServices } from '../app/WidgetServicesProvider.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { type ConsentFacts, instructionMessages } from './instruction-messages.ts';
import './consent.css';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The instruction's facts for a consent given now: the server's terms and clock, from the widget session. */
export const useConsentFacts = (): ConsentFacts | null => {
  const { session } = useWidgetServices();
  const { formatDate } = useI18n();
  const terms = session.current()?.consentTerms;
  if (!terms) return null;
  const until = new Date(session.serverNow().getTime() + terms.validityDays * DAY_MS);
  return { ...terms, validUntil: formatDate(until.toISOString(), { dateStyle: 'long' }) };
};

export interface ConsentInstructionProps {
  facts: ConsentFacts;
  agreed: boolean;
  onAgreedChange: (agreed: boolean) => void;
  /** Shown under the checkbox (and announced) when the customer tried to go on without agreeing. */
  error?: string;
  headingLevel?: 2 | 3;
}

/**
 * The consumer's instruction in plain language (what, from where, for whom, how often, how long, how to stop),
 * its terms version, and a real checkbox to agree: nothing is pre-ticked, and the form around it will not go on
 * without it.
 */
export const ConsentInstruction = forwardRef<HTMLInputElement, ConsentInstructionProps>(function ConsentInstruction(
  { facts, agreed, onAgreedChange, error, headingLevel = 2 },
  checkboxRef,
) {
  const t = useMessages(instructionMessages);
  const headingId = useId();
  const checkboxId = useId();
  const errorId = `${checkboxId}-error`;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="cw-consent" aria-labelledby={headingId}>
      <Heading id={headingId} className="cw-consent__heading">
        {t.heading}
      </Heading>
      <p>{t.intro}</p>
      <dl className="cw-consent__facts">
        {t.items(facts).map((item) => (
          <div key={item.label} className="cw-consent__fact">
            <dt>{item.label}</dt>
            <dd>{item.text}</dd>
          </div>
        ))}
      </dl>
      <p className="cw-muted cw-small">{t.version(facts.termsVersion)}</p>
      <div className={`cw-consent__agree ${error ? 'cw-consent__agree--invalid' : ''}`}>
        <input
          ref={checkboxRef}
          id={checkboxId}
          name="consent"
          type="checkbox"
          className="cw-consent__checkbox"
          checked={agreed}
          onChange={(event) => onAgreedChange(event.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          required
        />
        <label htmlFor={checkboxId}>{t.agree(facts.partnerName)}</label>
      </div>
      {error ? (
        <p className="cw-field__error" id={errorId}>
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </section>
  );
});
