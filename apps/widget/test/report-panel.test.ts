// @vitest-environment happy-dom
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ReportPanel } from '../src/report/ReportPanel.tsx';
import { REPORT } from './credit-report-fixture.ts';
import { fakeApi, renderPanel, settle, textOf } from './panel-harness.tsx';

let page: Awaited<ReturnType<typeof renderPanel>> | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
});

const showReport = async (locale: 'en' | 'es' = 'en') => {
  const { api, requests } = fakeApi({ 'GET /v1/users/usr_1/credit-report': () => ({ data: REPORT }) });
  page = await renderPanel(createElement(ReportPanel, { userId: 'usr_1' }), { api, locale });
  await settle(() => page?.host.querySelector('h2') !== null);
  return { host: page.host, requests };
};

const gridOf = (host: HTMLElement, creditor: string) => {
  const card = [...host.querySelectorAll('li.cw-account')].find((item) => textOf(item.querySelector('h4')) === creditor);
  const table = card?.querySelector('table');
  if (!table) throw new Error(`no payment grid for ${creditor}`);
  return table;
};

describe('the Report tab', () => {
  it('leads with the summary, then lists each account with its figures', async () => {
    const { host, requests } = await showReport();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/users/usr_1/credit-report']);
    const headings = [...host.querySelectorAll('h2, h3')].map(textOf);
    expect(headings).toEqual(['Credit report', 'Summary', 'Accounts (3)', 'Inquiries', 'Public records', 'Personal information']);
    const summary = Object.fromEntries(
      [...(host.querySelector('.cw-figures--summary')?.querySelectorAll('.cw-figures__item') ?? [])].map((item) => [
        textOf(item.querySelector('dt')),
        textOf(item.querySelector('dd')),
      ]),
    );
    expect(summary).toMatchObject({
      'Open accounts': '2',
      'Card balances': '$1,840 of $8,000',
      'Credit used': '23%',
      'Oldest account': '11.6 years',
      'Hard inquiries': '2 in 24 months (1 in 12)',
      'Negative marks': '0',
      'Payments on time': '98.6%',
    });
    const card = textOf(host.querySelector('li.cw-account'));
    for (const figure of ['Open', 'Credit card', 'Balance$1,840', 'Credit limit$8,000', 'Minimum payment$55', 'APR22.9%']) {
      expect(card).toContain(figure);
    }
    expect(textOf(host.querySelectorAll('li.cw-account')[1])).toContain('Amount borrowed$21,000');
  });

  it('gives every month of the payment grid a year, a month and its grade in words, never colour alone', async () => {
    const { host } = await showReport();
    const table = gridOf(host, 'Northwind Bank');
    // Named by its caption, and reachable by keyboard where it scrolls on a narrow screen.
    const region = table.closest('[tabindex="0"]');
    expect(region?.getAttribute('aria-labelledby')).toBe(table.querySelector('caption')?.id);
    expect(textOf(table.querySelector('caption'))).toBe('Northwind Bank credit card: payments over the last 24 months');

    const columns = [...table.querySelectorAll('thead th')];
    expect(columns.every((th) => th.getAttribute('scope') === 'col')).toBe(true);
    expect(columns.map((th) => textOf(th.querySelector('.cw-visually-hidden')) || textOf(th))).toEqual([
      'Year',
      ...['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November'],
      'December',
    ]);
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows.map((row) => textOf(row.querySelector('th[scope="row"]')))).toEqual(['2026', '2025', '2024']);

    const graded = [...table.querySelectorAll('td[data-status]')];
    expect(graded).toHaveLength(24);
    for (const cell of graded) {
      // The mark is decoration; the words are what a screen reader says, and they differ per grade.
      expect(cell.querySelector('[aria-hidden="true"]')?.textContent).toBeTruthy();
      expect(textOf(cell.querySelector('.cw-visually-hidden'))).toBe(
        cell.getAttribute('data-status') === '30' ? '30 days late' : 'Paid on time',
      );
    }
    // March 2026 is the late month: row 2026, the March column.
    const march2026 = rows[0]?.querySelectorAll('td')[2];
    expect(march2026?.querySelector('[aria-hidden="true"]')?.textContent).toBe('30');
    expect(textOf(march2026?.querySelector('.cw-visually-hidden'))).toBe('30 days late');
    // Months outside the 24 shown stay empty rather than read as "nothing reported".
    expect(rows[0]?.querySelectorAll('td')[11]?.textContent).toBe('');

    const details = table.closest('details');
    expect(textOf(details?.querySelector('summary'))).toBe('Payment history: 1 late month in 24');
    // The key lists the grades this account has, each mark beside its meaning.
    expect([...(details?.querySelectorAll('.cw-pay__key li') ?? [])].map(textOf)).toEqual(['✓ Paid on time', '30 30 days late']);
  });

  it('reads "nothing reported" months, inquiries and personal information, in Spanish too', async () => {
    const { host } = await showReport('es');
    const loan = gridOf(host, 'Contoso Auto Finance');
    expect(textOf(loan.querySelector('caption'))).toBe('préstamo de auto de Contoso Auto Finance: pagos de los últimos 24 meses');
    expect(textOf(loan.querySelector('thead th:nth-child(2) .cw-visually-hidden'))).toBe('enero');
    expect(loan.querySelectorAll('td[data-status="no_data"]')).toHaveLength(7);
    expect(textOf(loan.querySelector('td[data-status="no_data"] .cw-visually-hidden'))).toBe('Sin información');
    const text = textOf(host);
    expect(text).toContain('Historial de pagos: ningún pago atrasado en 24 meses');
    expect(text).toContain('Consultas duras');
    expect(text).toContain('1••• M•••• Street, Portland, OR 97201');
    expect(text).toContain('No hay registros públicos en su informe.');
  });

  it('shows the error screen with a retry when the bureau cannot be reached', async () => {
    const { api } = fakeApi({
      'GET /v1/users/usr_1/credit-report': () => ({
        status: 503,
        error: { code: 'SERVICE_UNAVAILABLE', message: 'The credit bureau is not answering.' },
      }),
    });
    page = await renderPanel(createElement(ReportPanel, { userId: 'usr_1' }), { api });
    const host = page.host;
    await settle(() => host.querySelector('[role="alert"]') !== null);
    expect(host.querySelector('[data-error-code]')?.getAttribute('data-error-code')).toBe('SERVICE_UNAVAILABLE');
    expect([...host.querySelectorAll('button')].map(textOf)).toContain('Try again');
  });
});
