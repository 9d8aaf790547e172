// The browser journeys (e2e/) drive Debian's Chromium. Install it when it is missing and we may
// (root with apt-get, as on CI machines); otherwise say exactly what to do instead of failing later.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(`Chromium is missing at ${CHROMIUM}: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
  console.log('Installing Debian chromium for the browser journeys…');
  const apt = (args) =>
    execFileSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    apt(['install', '-y', 'chromium']);
  } catch {
    apt(['update']);
    apt(['install', '-y', 'chromium']);
  }
}
