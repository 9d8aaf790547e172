import type { TSelfEnrollmentInput } from '@credit/contract';
import { isCreditApiError } from '@credit/sdk/browser';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { announce } from '../a11y/announcer.tsx';
import { enrollSelf } from '../api/enroll.ts';
import { useApi, useEmitEvent, useWidgetServices } from '../app/WidgetServicesProvider.tsx';
import { ConsentInstruction, useConsentFacts } from '../consent/ConsentInstruction.tsx';
import { instructionMessages } from '../consent/instruction-messages.ts';
import { ErrorScreen } from '../errors/ErrorScreen.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { Button } from '../ui/Button.tsx';
import { SelectField, TextField } from '../ui/Field.tsx';
import { ScreenHeader } from '../ui/ScreenHeader.tsx';
import { messages } from './messages.ts';
import {
  ENROLL_FIELDS,
  type EnrollField,
  type EnrollValues,
  fieldFromApiPath,
  toEnrollmentInput,
  US_STATES,
  validateAll,
  validateField,
} from './validate.ts';
import './enroll.css';

const EMPTY: EnrollValues = { ssn: '', dateOfBirth: '', street: '', city: '', state: '', zipCode: '', phone: '' };

/** The most recent allowed birth date (18 today) and the oldest (120), for the date picker's range. */
const dateBounds = () => {
  const today = new Date();
  const shift = (years: number) =>
    new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate())).toISOString().slice(0, 10);
  return { max: shift(18), min: shift(121) };
};

export function EnrollForm({ onEnrolled }: { onEnrolled: (userId: string | null) => Promise<unknown> | undefined }) {
  const t = useMessages(messages);
  const { locale } = useI18n();
  const consentText = useMessages(instructionMessages);
  const api = useApi();
  const { session } = useWidgetServices();
  const emitEvent = useEmitEvent();
  const facts = useConsentFacts();
  /** The consumer's instruction: never pre-ticked; the form does not go on without it. */
  const [agreed, setAgreed] = useState(false);
  const [consentError, setConsentError] = useState<string | undefined>(undefined);
  const consentRef = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState<EnrollValues>(EMPTY);
  /** Messages on show: a field is checked when it loses focus and on submit, not while first typed. */
  const [errors, setErrors] = useState<Partial<Record<EnrollField, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const bounds = dateBounds();

  const focusField = (field: EnrollField) => formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();

  const enroll = useMutation({
    mutationFn: (input: TSelfEnrollmentInput) => enrollSelf(api, input),
    onSuccess: async (user) => {
      emitEvent({ name: 'enrolled', data: { userId: user.userId } });
      if (user.consent) {
        emitEvent({ name: 'consent_given', data: { userId: user.userId, termsVersion: user.consent.termsVersion } });
      }
      await onEnrolled(user.userId);
    },
    onError: async (error) => {
      if (!isCreditApiError(error)) return;
      // Enrolled already (another tab, a retried request): carry on with the existing enrolment.
      if (error.code === 'USER_EXISTS') {
        await onEnrolled(null);
        return;
      }
      if (error.code !== 'VALIDATION_ERROR' || !error.details.length) return;
      const fromApi: Partial<Record<EnrollField, string>> = {};
      for (const detail of error.details) {
        const field = fieldFromApiPath(detail.field);
        if (field && !fromApi[field]) fromApi[field] = t.apiProblem(detail.message.replace(/\.$/, ''));
      }
      const fields = ENROLL_FIELDS.filter((f) => fromApi[f]);
      if (fields.length === 0) return;
      setErrors(fromApi);
      announce(t.errorCount(fields.length));
      const first = fields[0];
      if (first) focusField(first);
    },
  });

  const messageFor = (field: EnrollField, value: string) => {
    const problem = validateField(field, value);
    return problem ? t.problems[problem] : undefined;
  };

  const update = (field: EnrollField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // Once a message shows, it follows the typing so the user sees the moment it is fixed.
    if (errors[field]) setErrors((e) => ({ ...e, [field]: messageFor(field, value) }));
  };

  const check = (field: EnrollField) => {
    if (values[field] === '' && !errors[field]) return;
    setErrors((e) => ({ ...e, [field]: messageFor(field, values[field]) }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (enroll.isPending) return;
    const problems = validateAll(values);
    const invalid = ENROLL_FIELDS.filter((f) => problems[f]);
    const consentMissing = Boolean(facts) && !agreed;
    setConsentError(consentMissing ? consentText.mustAgree : undefined);
    if (invalid.length > 0 || consentMissing) {
      setErrors(Object.fromEntries(invalid.map((f) => [f, t.problems[problems[f] ?? 'required']])));
      announce(t.errorCount(invalid.length + (consentMissing ? 1 : 0)));
      const first = invalid[0];
      if (first) focusField(first);
      else consentRef.current?.focus();
      return;
    }
    setErrors({});
    // The language of this form is the language of the customer's alert e-mails.
    const input = { ...toEnrollmentInput(values), locale };
    enroll.mutate(
      facts
        ? {
            ...input,
            // Recorded as given in the widget, with this request's IP address and browser; the time is the server's.
            consent: { termsVersion: facts.termsVersion, acceptedAt: session.serverNow().toISOString(), method: 'widget' },
          }
        : input,
    );
  };

  const field = (name: EnrollField) => ({
    name,
    value: values[name],
    error: errors[name],
    hint: t.hints[name],
    onBlur: () => check(name),
  });

  const otherFailure =
    enroll.error &&
    !(
      (isCreditApiError(enroll.error, 'VALIDATION_ERROR') || isCreditApiError(enroll.error, 'USER_EXISTS')) &&
      Object.keys(errors).length
    )
      ? enroll.error
      : null;

  return (
    <div className="cw-stack">
      <ScreenHeader title={t.title} subtitle={t.intro} focusOnMount />
      <p className="cw-muted cw-small">{t.noImpact}</p>
      <form ref={formRef} className="cw-enroll" noValidate onSubmit={submit}>
        <TextField
          {...field('ssn')}
          label={t.labels.ssn}
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          pattern="[0-9]{4}"
          required
          onChange={(e) => update('ssn', e.target.value.replace(/\D/g, ''))}
        />
        <TextField
          {...field('dateOfBirth')}
          label={t.labels.dateOfBirth}
          type="date"
          autoComplete="bday"
          min={bounds.min}
          max={bounds.max}
          required
          onChange={(e) => update('dateOfBirth', e.target.value)}
        />
        <fieldset className="cw-enroll__address">
          <legend>{t.addressLegend}</legend>
          <TextField
            {...field('street')}
            label={t.labels.street}
            autoComplete="address-line1"
            maxLength={200}
            required
            onChange={(e) => update('street', e.target.value)}
          />
          <TextField
            {...field('city')}
            label={t.labels.city}
            autoComplete="address-level2"
            maxLength={100}
            required
            onChange={(e) => update('city', e.target.value)}
          />
          <div className="cw-enroll__pair">
            <SelectField
              {...field('state')}
              label={t.labels.state}
              autoComplete="address-level1"
              required
              onChange={(e) => update('state', e.target.value)}
            >
              <option value="">{t.chooseState}</option>
              {US_STATES.map(([code, name]) => (
                <option key={code} value={code}>
                  {name} ({code})
                </option>
              ))}
            </SelectField>
            <TextField
              {...field('zipCode')}
              label={t.labels.zipCode}
              inputMode="numeric"
              autoComplete="postal-code"
              maxLength={10}
              required
              onChange={(e) => update('zipCode', e.target.value)}
            />
          </div>
        </fieldset>
        <TextField
          {...field('phone')}
          label={`${t.labels.phone} ${t.optional}`}
          type="tel"
          autoComplete="tel"
          maxLength={21}
          onChange={(e) => update('phone', e.target.value)}
        />
        {facts ? (
          <ConsentInstruction
            ref={consentRef}
            facts={facts}
            agreed={agreed}
            onAgreedChange={(value) => {
              setAgreed(value);
              if (value) setConsentError(undefined);
            }}
            error={consentError}
          />
        ) : null}
        {otherFailure ? <ErrorScreen error={otherFailure} level={2} /> : null}
        <Button type="submit" loading={enroll.isPending} fullWidth>
          {enroll.isPending ? t.submitting : t.submit}
        </Button>
      </form>
    </div>
  );
}
