/** Playwright journeys across origins; written with the widget issue. */
export {};
