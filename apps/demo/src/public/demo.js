// Maple Bank's page script: what a partner writes around `CreditWidget.create`. Served as /demo.js so the
// page's Content-Security-Policy needs no inline script.
(() => {
  const config = JSON.parse(document.getElementById('demo-config').textContent);
  const container = document.getElementById('credit-widget');
  const log = document.getElementById('event-log');
  const localeSelect = document.getElementById('locale-select');
  const schemeToggle = document.getElementById('scheme-toggle');
  const sandboxStatus = document.getElementById('sandbox-status');
  const userQuery = `user=${encodeURIComponent(config.user)}`;

  let userToken = config.userToken;
  let locale = config.locale;
  let scheme = config.scheme;
  window.demoEvents = [];

  const logEvent = (event) => {
    window.demoEvents.push(event);
    const item = document.createElement('li');
    item.dataset.eventName = event.name;
    const name = document.createElement('strong');
    name.textContent = event.name;
    item.append(name, ` ${JSON.stringify(event.data)}`);
    log.append(item);
  };

  /** The bank's own notes go in the log but not in `window.demoEvents`, which holds only the widget's events. */
  const logNote = (text) => {
    const item = document.createElement('li');
    item.className = 'note';
    item.textContent = text;
    log.append(item);
  };

  // The partner's own server mints the fresh token; the browser never sees the client secret.
  const fetchToken = async () => {
    const response = await fetch(`/token?${userQuery}`, { method: 'POST' });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error);
    userToken = body.userToken;
    return userToken;
  };

  const createWidget = () => {
    window.demoWidget?.destroy();
    window.demoWidget = window.CreditWidget.create({
      container,
      userToken,
      locale,
      theme: { brandColor: scheme === 'dark' ? '#f28b82' : '#b3261e', radius: 12, colorScheme: scheme },
      onEvent: logEvent,
      onExit: () => logNote('The customer closed the widget (onExit).'),
      onTokenExpired: fetchToken,
    });
  };

  // Keeps the choice in the address, so a reload (or a test) comes back to the same settings.
  const rememberSettings = () => {
    const url = new URL(location.href);
    url.searchParams.set('locale', locale);
    url.searchParams.set('scheme', scheme);
    history.replaceState(null, '', url);
  };

  localeSelect.addEventListener('change', () => {
    locale = localeSelect.value;
    rememberSettings();
    createWidget();
  });

  schemeToggle.addEventListener('click', () => {
    scheme = scheme === 'dark' ? 'light' : 'dark';
    schemeToggle.setAttribute('aria-pressed', String(scheme === 'dark'));
    document.documentElement.dataset.scheme = scheme;
    rememberSettings();
    createWidget();
  });

  document.getElementById('open-offers').addEventListener('click', () => window.demoWidget?.open('offers'));

  const showAnswers = (answers) => {
    const list = document.createElement('ol');
    for (const { question, answer } of answers) {
      const item = document.createElement('li');
      const strong = document.createElement('strong');
      strong.textContent = answer;
      item.append(`${question} → `, strong);
      list.append(item);
    }
    sandboxStatus.replaceChildren('Right answers (same questions as in the widget, in any order):', list);
  };

  /** `changesWidget`: the action changes what the widget shows, so the page asks it to fetch again (`refresh()`). */
  const sandboxAction = (buttonId, path, changesWidget = false, working = 'Working…') => {
    const button = document.getElementById(buttonId);
    button.addEventListener('click', async () => {
      button.disabled = true;
      sandboxStatus.textContent = working;
      try {
        const response = await fetch(`${path}?${userQuery}`, { method: 'POST' });
        const body = await response.json();
        if (!response.ok) sandboxStatus.textContent = body.error;
        else if (body.answers) showAnswers(body.answers);
        else sandboxStatus.textContent = body.message;
        if (response.ok && changesWidget) window.demoWidget?.refresh();
      } catch {
        sandboxStatus.textContent = 'The bank’s server did not answer.';
      } finally {
        button.disabled = false;
      }
    });
  };
  sandboxAction('sandbox-answers', '/sandbox/answers');
  sandboxAction('sandbox-refresh', '/sandbox/score-refresh', true);
  sandboxAction('sandbox-alert', '/sandbox/alert', true);
  // The bank's server answers once the clock is ready again (every skipped month has run), so refresh() then
  // shows the longer history, the new alerts and the new score.
  sandboxAction('sandbox-advance-month', '/sandbox/advance-month', true, 'Advancing the clock one month…');
  sandboxAction('sandbox-advance-year', '/sandbox/advance-year', true, 'Advancing the clock one year…');

  if (window.CreditWidget) createWidget();
  else logNote('embed.js did not load: is the Credit API running?');
})();
