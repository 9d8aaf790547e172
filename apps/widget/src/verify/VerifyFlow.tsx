import type { TVerificationResult } from '@credit/contract';
import { isCreditApiError } from '@credit/sdk/browser';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { announce } from '../a11y/announcer.tsx';
import { type StartedVerification, startVerification, submitVerification } from '../api/verification.ts';
import { useApi, useEmitEvent } from '../app/WidgetServicesProvider.tsx';
import { ErrorScreen } from '../errors/ErrorScreen.tsx';
import { WidgetError } from '../errors/widget-error.ts';
import { useMessages } from '../i18n/index.ts';
import { Button } from '../ui/Button.tsx';
import { ScreenHeader } from '../ui/ScreenHeader.tsx';
import { LoadingRegion, Skeleton } from '../ui/Skeleton.tsx';
import { Countdown } from './Countdown.tsx';
import { messages } from './messages.ts';
import { QuestionStep } from './QuestionStep.tsx';
import './verify.css';

const SESSION_MINUTES = 10;

type Outcome =
  | { kind: 'verified' }
  | { kind: 'failed'; attemptsRemaining: number }
  | { kind: 'expired' }
  | { kind: 'locked'; error: unknown }
  | { kind: 'error'; error: unknown };

const lockedError = (message: string, unlocksAt: string | null | undefined) =>
  new WidgetError('VERIFICATION_LOCKED', message, unlocksAt ? { unlocksAt } : {});

/** A failed answer can be a lock (no attempts left) or a second chance. */
const outcomeOfFailure = (result: TVerificationResult, lockedMessage: string): Outcome =>
  result.unlocksAt || result.attemptsRemaining === 0
    ? { kind: 'locked', error: lockedError(lockedMessage, result.unlocksAt) }
    : { kind: 'failed', attemptsRemaining: result.attemptsRemaining ?? 0 };

const outcomeOfError = (error: unknown): Outcome => {
  if (isCreditApiError(error, 'VERIFICATION_LOCKED')) return { kind: 'locked', error };
  // An expired or already-used session is a validation error on sessionId: the fix is a new session.
  if (isCreditApiError(error, 'VALIDATION_ERROR') && error.details.some((d) => d.field === 'sessionId')) {
    return { kind: 'expired' };
  }
  return { kind: 'error', error };
};

export interface VerifyFlowProps {
  userId: string;
  /** `locked` users go straight to asking for questions, which answers with the unlock time. */
  initiallyLocked: boolean;
  onVerified(): Promise<unknown> | undefined;
}

/** The KBA wizard: intro → one question a step against the clock → verified, retry, expired or locked. */
export function VerifyFlow({ userId, initiallyLocked, onVerified }: VerifyFlowProps) {
  const t = useMessages(messages);
  const api = useApi();
  const emitEvent = useEmitEvent();
  const [started, setStarted] = useState<StartedVerification | null>(null);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [step, setStep] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const start = useMutation({
    mutationFn: () => startVerification(api, userId),
    onMutate: () => setOutcome(null),
    onSuccess: (next) => {
      setStarted(next);
      setAnswers({});
      setStep(0);
    },
    onError: (error) => setOutcome(outcomeOfError(error)),
  });

  const submit = useMutation({
    mutationFn: (current: StartedVerification) =>
      submitVerification(api, userId, {
        sessionId: current.session.sessionId,
        answers: current.session.questions.flatMap((q) =>
          answers[q.questionId] ? [{ questionId: q.questionId, answerId: answers[q.questionId] as string }] : [],
        ),
      }),
    onSuccess: async (result) => {
      setStarted(null);
      if (result.verified) {
        // Shown while the user's new status loads, instead of flashing the intro again.
        setOutcome({ kind: 'verified' });
        announce(t.verified);
        emitEvent({ name: 'verified', data: { userId: result.userId } });
        await onVerified();
        return;
      }
      setOutcome(outcomeOfFailure(result, t.lockedMessage));
    },
    onError: (error) => {
      setStarted(null);
      setOutcome(outcomeOfError(error));
    },
  });

  // A locked user learns the unlock time from the API, so ask at once rather than showing the intro.
  const askedForLock = useRef(false);
  useEffect(() => {
    if (!initiallyLocked || askedForLock.current) return;
    askedForLock.current = true;
    start.mutate();
  }, [initiallyLocked, start]);

  const onExpired = () => {
    if (submit.isPending) return;
    setStarted(null);
    setOutcome({ kind: 'expired' });
  };

  if (outcome?.kind === 'verified') {
    return (
      <div className="cw-stack" data-verify-state="verified">
        <ScreenHeader title={t.verified} />
      </div>
    );
  }
  if (outcome?.kind === 'locked') return <ErrorScreen error={outcome.error} />;
  if (outcome?.kind === 'error') return <ErrorScreen error={outcome.error} onRetry={() => start.mutate()} />;

  if (outcome?.kind === 'failed' || outcome?.kind === 'expired') {
    const failed = outcome.kind === 'failed';
    return (
      <div className="cw-stack" data-verify-state={outcome.kind}>
        <ScreenHeader title={failed ? t.failedTitle : t.expiredTitle} focusOnMount />
        <p>{failed ? t.failedBody : t.expiredBody}</p>
        {failed ? <p className="cw-verify__attempts">{t.attemptsLeft(outcome.attemptsRemaining)}</p> : null}
        <div>
          <Button onClick={() => start.mutate()} loading={start.isPending}>
            {failed ? t.tryAgain : t.startAgain}
          </Button>
        </div>
      </div>
    );
  }

  // A locked customer must not be offered "Start verification" while the API is asked when the lock ends.
  if (!started && initiallyLocked && !outcome) {
    return (
      <LoadingRegion label={t.checkingLock}>
        <Skeleton width="60%" height={28} />
        <Skeleton lines={3} />
      </LoadingRegion>
    );
  }

  if (!started) {
    return (
      <div className="cw-stack">
        <ScreenHeader title={t.title} subtitle={t.intro} focusOnMount />
        <p>{t.rules(3, SESSION_MINUTES)}</p>
        <div>
          <Button onClick={() => start.mutate()} loading={start.isPending}>
            {start.isPending ? t.starting : t.start}
          </Button>
        </div>
      </div>
    );
  }

  const { questions } = started.session;
  const question = questions[step];
  if (!question) return null;
  return (
    <div className="cw-stack">
      <ScreenHeader title={t.title} />
      <Countdown key={started.session.sessionId} deadline={started.deadline} onExpired={onExpired} />
      <QuestionStep
        key={`${started.session.sessionId}-${step}`}
        question={question}
        index={step}
        total={questions.length}
        selected={answers[question.questionId]}
        onSelect={(answerId) => setAnswers((a) => ({ ...a, [question.questionId]: answerId }))}
        onBack={() => setStep((s) => Math.max(0, s - 1))}
        onNext={() => (step < questions.length - 1 ? setStep(step + 1) : submit.mutate(started))}
        submitting={submit.isPending}
      />
    </div>
  );
}
