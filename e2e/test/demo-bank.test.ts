import { describe } from 'vitest';
import { useDemoBank } from '../src/demo-bank.ts';
import { firstVisitJourneys } from './demo-bank/first-visit.ts';
import { narrowScreenJourneys } from './demo-bank/narrow-screens.ts';
import { reactPageJourneys } from './demo-bank/react-page.ts';
import { reportAndSimulatorJourneys } from './demo-bank/report-and-simulator.ts';
import { staysCurrentJourneys } from './demo-bank/stays-current.ts';

/**
 * The demo bank as its customers use it: a first visit (layout shift, a clean console, the favicon, Apply,
 * compressed assets), a widget that stays current without a reload, every screen on a narrow phone, and the Report
 * and What-if screens against what the API answers (the Offers tab's journey is offers-journey.test.ts).
 * One file, so one API, one demo bank and one Chromium serve them all: each test file starts its own, and
 * the files run one after another on a small machine.
 */
describe('the demo bank, as its customers use it', () => {
  const bank = useDemoBank();
  firstVisitJourneys(bank);
  staysCurrentJourneys(bank);
  narrowScreenJourneys(bank);
  reactPageJourneys(bank);
  reportAndSimulatorJourneys(bank);
});
