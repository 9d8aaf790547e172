import type { TCreditReportAccount, TSimulation, TSimulationAction, TSimulationActionType } from '@credit/contract';
import { isCreditApiError } from '@credit/sdk/browser';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { announce } from '../a11y/announcer.tsx';
import { SeverityIcon } from '../alerts/SeverityIcon.tsx';
import { creditReportQuery, simulateCreditScore } from '../api/credit.ts';
import { useApi } from '../app/WidgetServicesProvider.tsx';
import { PanelError } from '../dashboard/PanelError.tsx';
import { PanelSkeleton } from '../dashboard/PanelSkeleton.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { accountMessages } from '../report/account-messages.ts';
import { messages as scoreMessages } from '../score/messages.ts';
import { Button } from '../ui/Button.tsx';
import { SelectField } from '../ui/Field.tsx';
import { AmountField } from './AmountField.tsx';
import {
  amountRange,
  availableActionTypes,
  type DraftAction,
  type DraftProblems,
  type DraftSlot,
  draftFor,
  eligibleAccounts,
  LOAN_TYPES,
  type LoanType,
  locateDetail,
  MAX_ACTIONS,
  MAX_MONTHS,
  needsAccount,
  type Problem,
  toAction,
} from './actions.ts';
import { messages } from './messages.ts';
import { SimulationResult } from './SimulationResult.tsx';
import './simulator.css';

/** The drafts' content without their keys: what an estimate was made for, to tell when the form has moved on. */
const planOf = (drafts: DraftAction[]) => JSON.stringify(drafts.map(({ key: _key, ...rest }) => rest));

const fieldId = (baseId: string, key: number, slot: DraftSlot | 'type') => `${baseId}-${key}-${slot}`;

function ActionFields({
  draft,
  position,
  accounts,
  types,
  problems,
  baseId,
  onChange,
  onRemove,
}: {
  draft: DraftAction;
  position: number;
  accounts: readonly TCreditReportAccount[];
  types: readonly TSimulationActionType[];
  problems: DraftProblems | undefined;
  baseId: string;
  onChange(next: DraftAction): void;
  onRemove: (() => void) | null;
}) {
  const t = useMessages(messages);
  const names = useMessages(accountMessages);
  const { formatCurrency, formatNumber } = useI18n();
  // A balance may have cents: shown then, and "$1,840" rather than "$1,840.00" when it has none.
  const exact = (value: number) =>
    formatCurrency(value, Number.isInteger(value) ? {} : { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const legendId = fieldId(baseId, draft.key, 'action');
  const account = accounts.find((candidate) => candidate.accountId === draft.accountId);
  const range = amountRange(draft, account);
  const choices = eligibleAccounts(draft.type, accounts);
  const text = (problem: Problem | undefined, slot: DraftSlot): string | null => {
    if (!problem) return null;
    switch (problem.code) {
      case 'chooseAccount':
      case 'enterAmount':
      case 'tooLow':
        return t.problems[problem.code];
      case 'tooHigh':
        return t.problems.tooHigh(formatCurrency(problem.max));
      case 'moreThanBalance':
        return t.problems.moreThanBalance(exact(problem.balance));
      case 'notAboveLimit':
        return t.problems.notAboveLimit(formatCurrency(problem.limit));
      case 'months':
        return t.problems.months(formatNumber(MAX_MONTHS));
      case 'api':
        return t.problems.api(slot, problem.message);
    }
  };

  // A new type, account or kind of loan starts the figure where its slider starts: a figure for one rarely fits another.
  const changeType = (type: TSimulationActionType) => onChange(draftFor(draft.key, type, accounts, draft.loanType));
  const changeAccount = (accountId: string) => {
    const next = { ...draft, accountId };
    const nextRange = amountRange(
      next,
      accounts.find((candidate) => candidate.accountId === accountId),
    );
    onChange({ ...next, amount: nextRange ? String(nextRange.initial) : '' });
  };
  const changeLoanType = (loanType: LoanType) => {
    const next = { ...draft, loanType };
    onChange({ ...next, amount: String(amountRange(next, undefined)?.initial ?? '') });
  };

  let hint: string | undefined;
  if (draft.type === 'pay_down_balance' && account) hint = t.upToBalance(exact(account.balance));
  else if (draft.type === 'raise_credit_limit' && account?.creditLimit != null)
    hint = t.currentLimit(formatCurrency(account.creditLimit));
  else if (draft.type === 'pay_on_time') hint = t.monthsHint(formatNumber(MAX_MONTHS));

  const actionProblem = text(problems?.action, 'action');
  return (
    <fieldset className="cw-sim-action" aria-describedby={actionProblem ? `${legendId}-error` : undefined}>
      <legend id={legendId} className="cw-sim-action__legend">
        {t.actionLegend(position)}
      </legend>
      <SelectField
        id={fieldId(baseId, draft.key, 'type')}
        label={t.actionType}
        hint={t.actionHints[draft.type]}
        value={draft.type}
        onChange={(event) => changeType(event.target.value as TSimulationActionType)}
      >
        {types.map((type) => (
          <option key={type} value={type}>
            {t.actionTypes[type]}
          </option>
        ))}
      </SelectField>
      {needsAccount(draft.type) ? (
        <SelectField
          id={fieldId(baseId, draft.key, 'accountId')}
          label={t.account}
          value={draft.accountId}
          error={text(problems?.accountId, 'accountId')}
          onChange={(event) => changeAccount(event.target.value)}
        >
          {choices.map((choice) => (
            <option key={choice.accountId} value={choice.accountId}>
              {t.accountOption(
                choice.creditor,
                names.types[choice.type],
                draft.type === 'raise_credit_limit' && choice.creditLimit !== null
                  ? t.limitFigure(formatCurrency(choice.creditLimit))
                  : t.balanceFigure(exact(choice.balance)),
              )}
            </option>
          ))}
        </SelectField>
      ) : null}
      {draft.type === 'take_loan' ? (
        <SelectField
          id={fieldId(baseId, draft.key, 'loanType')}
          label={t.loanType}
          value={draft.loanType}
          error={text(problems?.loanType, 'loanType')}
          onChange={(event) => changeLoanType(event.target.value as LoanType)}
        >
          {LOAN_TYPES.map((loanType) => (
            <option key={loanType} value={loanType}>
              {t.loanTypes[loanType]}
            </option>
          ))}
        </SelectField>
      ) : null}
      {range ? (
        <AmountField
          id={fieldId(baseId, draft.key, 'amount')}
          label={t.amountLabels[draft.type] ?? ''}
          hint={hint}
          error={text(problems?.amount, 'amount')}
          value={draft.amount}
          onChange={(amount) => onChange({ ...draft, amount })}
          range={range}
          format={(value) => (range.kind === 'currency' ? formatCurrency(value) : formatNumber(value))}
        />
      ) : null}
      {actionProblem ? (
        <p className="cw-inline-error" id={`${legendId}-error`}>
          <SeverityIcon severity="warning" />
          {actionProblem}
        </p>
      ) : null}
      {onRemove ? (
        <Button variant="secondary" size="sm" className="cw-sim-action__remove" onClick={onRemove}>
          {t.remove}
          <span className="cw-visually-hidden"> {t.actionLegend(position)}</span>
        </Button>
      ) : null}
    </fieldset>
  );
}

/**
 * Where an API problem shows in the form: next to the field it names, or on the action as a whole when the action
 * has no such field (the API may name a figure the form holds for another type, or an account it does not ask for).
 */
const slotFor = (draft: DraftAction, named: DraftSlot, accounts: readonly TCreditReportAccount[]): DraftSlot => {
  const account = accounts.find((candidate) => candidate.accountId === draft.accountId);
  if (named === 'amount' && !amountRange(draft, account)) return 'action';
  if (named === 'accountId' && !needsAccount(draft.type)) return 'action';
  if (named === 'loanType' && draft.type !== 'take_loan') return 'action';
  return named;
};

/** Where focus goes for the first problem: the field it names, or the action's first control. */
const firstProblemTarget = (baseId: string, drafts: DraftAction[], problems: Record<number, DraftProblems>) => {
  for (const draft of drafts) {
    const found = problems[draft.key];
    if (!found) continue;
    const slot = (['accountId', 'loanType', 'amount'] as const).find((candidate) => found[candidate]);
    return fieldId(baseId, draft.key, slot ?? 'type');
  }
  return null;
};

function Simulator({ userId, accounts }: { userId: string; accounts: readonly TCreditReportAccount[] }) {
  const t = useMessages(messages);
  const ratings = useMessages(scoreMessages).ratings;
  const api = useApi();
  const { formatNumber } = useI18n();
  const baseId = useId();
  const headingId = useId();
  const types = availableActionTypes(accounts);
  const nextKey = useRef(1);
  const [drafts, setDrafts] = useState<DraftAction[]>(() => [draftFor(0, types[0] ?? 'pay_on_time', accounts)]);
  const [problems, setProblems] = useState<Record<number, DraftProblems>>({});
  const [result, setResult] = useState<{ simulation: TSimulation; plan: string } | null>(null);
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  /** A validation error naming no field of the form (the list of actions as a whole): said under the button. */
  const [unplacedProblem, setUnplacedProblem] = useState<string | null>(null);
  const addButtonId = `${baseId}-add`;

  useEffect(() => {
    if (!focusTarget) return;
    document.getElementById(focusTarget)?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  const showProblems = (found: Record<number, DraftProblems>, count: number) => {
    setProblems(found);
    announce(t.problemCount(count));
    setFocusTarget(firstProblemTarget(baseId, drafts, found));
  };

  const simulation = useMutation({
    mutationFn: ({ actions }: { actions: TSimulationAction[]; sent: DraftAction[] }) => simulateCreditScore(api, userId, actions),
    onSuccess: (data, { sent }) => {
      setResult({ simulation: data, plan: planOf(sent) });
      announce(
        t.announce(
          formatNumber(data.simulatedScore),
          ratings[data.simulatedRating],
          data.change,
          formatNumber(Math.abs(data.change)),
          formatNumber(data.currentScore),
        ),
      );
    },
    onError: (error, { sent }) => {
      if (!isCreditApiError(error, 'VALIDATION_ERROR') || !error.details.length) return;
      const found: Record<number, DraftProblems> = {};
      let count = 0;
      for (const detail of error.details) {
        const located = locateDetail(detail.field);
        const draft = located ? sent[located.index] : undefined;
        if (!located || !draft) continue;
        const forDraft = found[draft.key] ?? {};
        found[draft.key] = forDraft;
        const slot = slotFor(draft, located.slot, accounts);
        if (forDraft[slot]) continue;
        forDraft[slot] = { code: 'api', message: detail.message };
        count += 1;
      }
      if (count) showProblems(found, count);
      else setUnplacedProblem(error.details[0]?.message ?? error.message);
    },
  });

  const update = (next: DraftAction) => {
    setDrafts((current) => current.map((draft) => (draft.key === next.key ? next : draft)));
    setProblems(({ [next.key]: _fixed, ...rest }) => rest);
  };
  const remove = (key: number) => {
    setDrafts((current) => current.filter((draft) => draft.key !== key));
    setProblems(({ [key]: _gone, ...rest }) => rest);
    setFocusTarget(addButtonId);
  };
  const add = () => {
    const key = nextKey.current++;
    setDrafts((current) => [...current, draftFor(key, types[0] ?? 'pay_on_time', accounts)]);
    setFocusTarget(fieldId(baseId, key, 'type'));
  };

  const run = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<number, DraftProblems> = {};
    const actions: TSimulationAction[] = [];
    let count = 0;
    for (const draft of drafts) {
      const checked = toAction(draft, accounts);
      if (checked.action) actions.push(checked.action);
      else {
        found[draft.key] = checked.problems;
        count += Object.keys(checked.problems).length;
      }
    }
    setUnplacedProblem(null);
    if (count) return showProblems(found, count);
    setProblems({});
    simulation.mutate({ actions, sent: drafts });
  };

  const failure = unplacedProblem
    ? t.planProblem(unplacedProblem)
    : simulation.isError && !isCreditApiError(simulation.error, 'VALIDATION_ERROR')
      ? t.runFailed
      : null;
  return (
    <section className="cw-panel cw-simulator" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.heading}</h2>
      <p className="cw-muted">{t.intro}</p>
      <form className="cw-sim-form" noValidate onSubmit={run}>
        {drafts.map((draft, index) => (
          <ActionFields
            key={draft.key}
            draft={draft}
            position={index + 1}
            accounts={accounts}
            types={types}
            problems={problems[draft.key]}
            baseId={baseId}
            onChange={update}
            onRemove={drafts.length > 1 ? () => remove(draft.key) : null}
          />
        ))}
        <div className="cw-sim-form__actions">
          {drafts.length < MAX_ACTIONS ? (
            <Button id={addButtonId} variant="secondary" onClick={add}>
              {t.addAction}
            </Button>
          ) : null}
          <Button type="submit" loading={simulation.isPending}>
            {simulation.isPending ? t.running : t.run}
          </Button>
        </div>
        {failure ? (
          <p className="cw-inline-error" role="alert">
            <SeverityIcon severity="warning" />
            {failure}
          </p>
        ) : null}
      </form>
      {result ? (
        <SimulationResult simulation={result.simulation} stale={result.plan !== planOf(drafts)} busy={simulation.isPending} />
      ) : null}
    </section>
  );
}

/** The what-if tab: the accounts come from the credit report, which the Report tab shares. */
export function SimulatorPanel({ userId }: { userId: string }) {
  const t = useMessages(messages);
  const api = useApi();
  const report = useQuery(creditReportQuery(api, userId));
  if (report.isPending) return <PanelSkeleton label={t.loading} />;
  if (report.isError) return <PanelError error={report.error} onRetry={() => report.refetch()} />;
  return <Simulator userId={userId} accounts={report.data.accounts} />;
}

export default SimulatorPanel;
