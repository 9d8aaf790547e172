// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatorPanel } from '../src/simulator/SimulatorPanel.tsx';
import { AUTO_LOAN_ID, CARD_ID, REPORT, SIMULATION } from './credit-report-fixture.ts';
import { type Answer, click, enter, fakeApi, renderPanel, type SentRequest, settle, textOf } from './panel-harness.tsx';

let page: Awaited<ReturnType<typeof renderPanel>> | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
});

const SIMULATIONS = 'POST /v1/users/usr_1/credit-score/simulations';

const openSimulator = async (simulate: (request: SentRequest) => Answer = () => ({ data: SIMULATION })) => {
  const { api, requests } = fakeApi({
    'GET /v1/users/usr_1/credit-report': () => ({ data: REPORT }),
    [SIMULATIONS]: simulate,
  });
  page = await renderPanel(createElement(SimulatorPanel, { userId: 'usr_1' }), { api });
  const host = page.host;
  await settle(() => host.querySelector('form') !== null);
  const fieldsets = () => [...host.querySelectorAll('fieldset')];
  /** The control labelled `label` inside the n-th action (its number field, for a figure). */
  const control = <T extends HTMLElement>(action: number, label: string) => {
    const fieldset = fieldsets()[action];
    const labelElement = [...(fieldset?.querySelectorAll('label') ?? [])].find((l) => textOf(l) === label);
    const found = labelElement && host.ownerDocument.getElementById(labelElement.htmlFor);
    if (!found) throw new Error(`no "${label}" in action ${action + 1}`);
    return found as T;
  };
  const button = (name: string) => {
    const found = [...host.querySelectorAll('button')].find((b) => textOf(b) === name);
    if (!found) throw new Error(`no button "${name}"`);
    return found;
  };
  const simulations = () => requests.filter((r) => `${r.method} ${r.path}` === SIMULATIONS);
  return { host, control, button, fieldsets, simulations };
};

/** What the live region says once its next frame has run. */
const announced = async () => {
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  return textOf(document.querySelector('[aria-live="polite"]'));
};

describe('the What-if tab', () => {
  it('posts the chosen actions, then shows the estimate on the dial with the change spoken', async () => {
    const { host, control, button, fieldsets, simulations } = await openSimulator();
    // The first action starts as paying down the first open account with a balance, the card.
    expect(control<HTMLSelectElement>(0, 'What would you do?').value).toBe('pay_down_balance');
    expect(control<HTMLSelectElement>(0, 'Which account?').value).toBe(CARD_ID);
    const amount = control<HTMLInputElement>(0, 'Amount to pay');
    expect(amount.type).toBe('number');
    // The slider carries the same name and says its value as money.
    const slider = fieldsets()[0]?.querySelector<HTMLInputElement>('input[type="range"]');
    expect(slider?.getAttribute('aria-labelledby')).toBe(host.querySelector(`label[for="${amount.id}"]`)?.id);
    await enter(amount, '1000');
    expect(slider?.value).toBe('1000');
    expect(slider?.getAttribute('aria-valuetext')).toBe('$1,000');
    await enter(slider as HTMLInputElement, '1500');
    expect(amount.value).toBe('1500');

    await click(button('Add another action'));
    expect(fieldsets()).toHaveLength(2);
    // The new action's first field has focus, so a keyboard user carries on there.
    expect(document.activeElement).toBe(control(1, 'What would you do?'));
    await enter(control<HTMLSelectElement>(1, 'What would you do?'), 'pay_on_time');
    await enter(control<HTMLInputElement>(1, 'Months of on-time payments'), '6');
    await click(button('Add another action'));
    await enter(control<HTMLSelectElement>(2, 'What would you do?'), 'take_loan');
    await enter(control<HTMLSelectElement>(2, 'Kind of loan'), 'personal_loan');
    await enter(control<HTMLInputElement>(2, 'Loan amount'), '8000');

    await click(button('See my estimated score'));
    await settle(() => host.querySelector('.cw-sim-result') !== null);
    expect(simulations().map((r) => r.body)).toEqual([
      {
        actions: [
          { type: 'pay_down_balance', accountId: CARD_ID, amount: 1500 },
          { type: 'pay_on_time', months: 6 },
          { type: 'take_loan', loanType: 'personal_loan', amount: 8000 },
        ],
      },
    ]);

    const result = host.querySelector('.cw-sim-result');
    expect(result?.querySelector('svg[role="img"]')?.getAttribute('aria-label')).toBe(
      'Estimated score gauge from 300 to 850, showing 730, Good',
    );
    expect(textOf(result?.querySelector('.cw-dial__readout'))).toBe('730, Good, ▲ +18 points');
    expect(await announced()).toBe('Estimated score 730, Good: up 18 points from 712.');
    // Factors that moved lead, each before and after in words.
    const factors = [...(result?.querySelectorAll('.cw-sim-factor') ?? [])];
    const factor = (index: number, part: string) => [...(factors[index]?.querySelectorAll(part) ?? [])].map(textOf);
    expect(factor(0, '.cw-sim-factor__name, .cw-badge')).toEqual(['Credit utilization', '▲ Better']);
    expect(factor(0, 'dt, dd')).toEqual(['Now', '62 out of 100 · Medium impact', 'After', '85 out of 100 · Low impact']);
    expect(factor(1, '.cw-sim-factor__name, .cw-badge')).toEqual(['Payment history', '▲ Better']);
    expect(factor(2, '.cw-badge')).toEqual(['▶ No change']);
    expect(textOf(result?.querySelector('.cw-sim-disclaimer h4'))).toBe('This is only an estimate');
    expect(textOf(result?.querySelector('.cw-sim-disclaimer p'))).toBe(SIMULATION.disclaimer);

    // Changing a choice marks the estimate as out of date until it runs again.
    await enter(control<HTMLInputElement>(1, 'Months of on-time payments'), '12');
    expect(textOf(host.querySelector('.cw-sim-result__stale'))).toContain('You changed your choices');
  });

  it('shows a drop as a minus, in words for screen readers', async () => {
    const { host, control, button } = await openSimulator(() => ({
      data: { ...SIMULATION, simulatedScore: 687, change: -25 },
    }));
    await enter(control<HTMLSelectElement>(0, 'What would you do?'), 'miss_payment');
    await enter(control<HTMLSelectElement>(0, 'Which account?'), AUTO_LOAN_ID);
    await click(button('See my estimated score'));
    await settle(() => host.querySelector('.cw-sim-result') !== null);
    expect(textOf(host.querySelector('.cw-sim-result__change'))).toBe('▼ −25 points');
    expect(await announced()).toBe('Estimated score 687, Good: down 25 points from 712.');
  });

  it('checks a figure before sending it, next to its field', async () => {
    const { host, control, button, simulations } = await openSimulator();
    const amount = control<HTMLInputElement>(0, 'Amount to pay');
    await enter(amount, '2500');
    await click(button('See my estimated score'));
    expect(simulations()).toHaveLength(0);
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    const describedBy = amount.getAttribute('aria-describedby')?.split(' ') ?? [];
    const messages = describedBy.map((id) => textOf(host.ownerDocument.getElementById(id)));
    expect(messages).toContain('⚠ You can pay at most the balance, $1,840.');
    expect(document.activeElement).toBe(amount);
    expect(await announced()).toBe('1 thing to fix before we can estimate.');
  });

  it('puts the API’s validation errors next to the field they name', async () => {
    const { host, control, button, simulations } = await openSimulator(() => ({
      status: 422,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'The request is not valid.',
        details: [{ field: 'actions.1.newLimit', message: 'must be at most 3 times the current limit' }],
      },
    }));
    await click(button('Add another action'));
    await enter(control<HTMLSelectElement>(1, 'What would you do?'), 'raise_credit_limit');
    const newLimit = control<HTMLInputElement>(1, 'New credit limit');
    await enter(newLimit, '90000');
    await click(button('See my estimated score'));
    await settle(() => newLimit.getAttribute('aria-invalid') === 'true');
    expect(simulations()[0]?.body).toEqual({
      actions: [
        { type: 'pay_down_balance', accountId: CARD_ID, amount: 925 },
        { type: 'raise_credit_limit', accountId: CARD_ID, newLimit: 90_000 },
      ],
    });
    const errorId = newLimit
      .getAttribute('aria-describedby')
      ?.split(' ')
      .find((id) => id.endsWith('-error'));
    expect(textOf(host.ownerDocument.getElementById(errorId ?? ''))).toBe(
      '⚠ This amount must be at most 3 times the current limit.',
    );
    expect(control<HTMLInputElement>(0, 'Amount to pay').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(newLimit);
    expect(host.querySelector('.cw-sim-result')).toBeNull();
  });

  it('says a problem with the actions as a whole under the button', async () => {
    const { host, button } = await openSimulator(() => ({
      status: 422,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'The request is not valid.',
        details: [{ field: 'actions', message: 'must name at most 10 actions' }],
      },
    }));
    await click(button('See my estimated score'));
    await settle(() => host.querySelector('form [role="alert"]') !== null);
    expect(textOf(host.querySelector('form [role="alert"]'))).toBe('We could not estimate this: must name at most 10 actions.');
  });
});
