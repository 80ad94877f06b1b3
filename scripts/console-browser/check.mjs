// The console in a real browser against a running stack: every node shown with its breaker, a fault injected from the
// page turns its node UNAVAILABLE and the decision stream moves traffic away from it, one decision's detail opens, a
// policy edit shows its dry-run diff and is applied as a new version; screenshots of each step go to $SHOTS. Env: CONSOLE_URL, ROUTER_URL, SIMULATOR_URL, ZEROLAYER_API_KEY, ZEROLAYER_ADMIN_TOKEN,
// CHROMIUM (default /usr/bin/chromium), SHOTS (default ../../docs/console).
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

const consoleUrl = required('CONSOLE_URL');
const routerUrl = required('ROUTER_URL');
const simulatorUrl = required('SIMULATOR_URL');
const apiKey = required('ZEROLAYER_API_KEY');
const adminToken = required('ZEROLAYER_ADMIN_TOKEN');
const shots = resolve(process.env.SHOTS ?? new URL('../../docs/console', import.meta.url).pathname);
mkdirSync(shots, { recursive: true });

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

function step(text) {
  console.log(`console-check: ${text}`);
}

// Steady traffic pinned to haiku, so that a haiku node's trouble shows as traffic moving to its peers.
let sending = true;
let sent = 0;
let failed = 0;
async function traffic() {
  while (sending) {
    try {
      const response = await fetch(`${routerUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'anthropic-version': '2023-06-01',
          'anthropic-routing-priority': 'haiku' },
        body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 8,
          messages: [{ role: 'user', content: `console check ${sent}` }] }),
      });
      await response.arrayBuffer();
      if (response.status !== 200) failed++;
    } catch {
      failed++;
    }
    sent++;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run',
    '--disable-dev-shm-usage'],
});
const load = traffic();
let victim;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => { throw new Error(`page error: ${error.message}`); });
  const simulated = (await (await fetch(`${simulatorUrl}/admin/nodes`)).json()).nodes.map((n) => n.id).sort();

  step(`opening ${consoleUrl}/console/`);
  await page.goto(`${consoleUrl}/console/`);
  await page.getByTestId('connection').filter({ hasText: 'live' }).waitFor({ timeout: 30_000 });

  step(`waiting for all ${simulated.length} simulated nodes in the fleet table`);
  await page.waitForFunction((count) => document.querySelectorAll('[data-testid="node-row"]').length === count,
    simulated.length, { timeout: 60_000 });
  const shown = (await page.getByTestId('node-row').evaluateAll((rows) => rows.map((r) => r.dataset.node))).sort();
  if (JSON.stringify(shown) !== JSON.stringify(simulated)) {
    throw new Error(`fleet shows ${shown} but the simulator has ${simulated}`);
  }

  step('waiting for haiku decisions in the stream');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="decision-row"][data-tier="haiku"]')
    .length >= 5, null, { timeout: 60_000 });
  victim = await page.locator('[data-testid="decision-row"][data-tier="haiku"]').first().getAttribute('data-node');
  step(`waiting for ${victim}'s breaker, as the decisions that weighed it report it`);
  await page.locator(`[data-testid="node-row"][data-node="${victim}"] [data-testid="breaker"][data-open="false"]`)
    .waitFor({ timeout: 30_000 });
  await page.screenshot({ path: `${shots}/console-fleet.png`, fullPage: true });

  step(`injecting sm_saturation on ${victim} from the page`);
  await page.getByTestId('admin-token').fill(adminToken);
  const row = page.locator(`[data-testid="node-row"][data-node="${victim}"]`);
  await row.getByTestId('fault-type').selectOption('sm_saturation');
  await row.getByTestId('inject-fault').click();
  await page.locator(`[data-testid="node-row"][data-node="${victim}"][data-state="UNAVAILABLE"]`)
    .waitFor({ timeout: 30_000 });
  await row.locator('.fault-list').filter({ hasText: 'sm_saturation' }).waitFor({ timeout: 30_000 });
  step(`${victim} is UNAVAILABLE in the fleet table, its fault listed`);

  step('waiting for the newest 10 decisions to avoid it');
  await page.waitForFunction((node) => {
    const rows = [...document.querySelectorAll('[data-testid="decision-row"]')].slice(0, 10);
    return rows.length === 10 && rows.every((r) => r.dataset.node !== node);
  }, victim, { timeout: 60_000 }).catch(async (error) => {
    const rows = await page.getByTestId('decision-row').evaluateAll((all) => all.slice(0, 15)
      .map((r) => `${r.dataset.tier}/${r.dataset.node}/${r.dataset.requestId}`));
    throw new Error(`${error.message}; newest rows: ${rows.join(', ')}; sent ${sent}, failed ${failed}`);
  });
  await page.screenshot({ path: `${shots}/console-fault.png`, fullPage: true });

  step('opening one decision\'s detail');
  await page.locator('[data-testid="decision-row"]').first().click();
  await page.getByTestId('decision-detail').waitFor({ state: 'visible', timeout: 10_000 });
  await page.getByTestId('candidate-table').waitFor({ state: 'visible', timeout: 10_000 });
  const candidates = await page.getByTestId('candidate-row').count();
  if (candidates < 1) throw new Error('the decision detail lists no candidates');
  step(`the decision's detail lists ${candidates} candidates with their terms`);
  await page.getByTestId('decision-detail').screenshot({ path: `${shots}/console-decision.png` });

  step(`clearing ${victim}'s faults`);
  await row.getByTestId('clear-faults').click();
  await page.locator(`[data-testid="node-row"][data-node="${victim}"]:not([data-state="UNAVAILABLE"])`)
    .waitFor({ timeout: 60_000 });
  await row.locator('.fault-list').filter({ hasText: 'none' }).waitFor({ timeout: 30_000 });
  step('editing the policy: dry run first, then apply');
  const editor = page.getByTestId('policy-editor');
  await page.waitForFunction(() => document.querySelector('[data-testid="policy-editor"]').value.includes('resilience'),
    null, { timeout: 30_000 });
  const versionText = await page.getByTestId('policy-version').textContent();
  const activeVersion = Number(/active version (\d+)/.exec(versionText)?.[1]);
  if (!Number.isFinite(activeVersion)) throw new Error(`no active policy version shown: ${versionText}`);
  const policy = JSON.parse(await editor.inputValue());
  policy.resilience.breakerCooldownMs += 1000;
  await editor.fill(JSON.stringify(policy, null, 2));
  if (!(await page.getByTestId('policy-apply').isDisabled())) throw new Error('Apply is enabled before a dry run');
  await page.getByTestId('policy-dry-run').click();
  await page.getByTestId('policy-change').filter({ hasText: 'breakerCooldownMs' }).waitFor({ timeout: 30_000 });
  await page.getByTestId('policy-replay').waitFor({ timeout: 10_000 });
  const diffText = await page.getByTestId('policy-diff').innerText();
  if (/\b(null|undefined|NaN)\b/.test(diffText)) throw new Error(`the dry-run diff shows a placeholder: ${diffText}`);
  await page.getByTestId('policy').screenshot({ path: `${shots}/console-policy.png` });
  step('the dry run lists the change; applying it');
  await page.locator('[data-testid="policy-apply"]:not([disabled])').click({ timeout: 10_000 });
  await page.getByTestId('policy-version').filter({ hasText: `active version ${activeVersion + 1}` })
    .waitFor({ timeout: 30_000 });
  await page.locator(`[data-testid="policy-history-item"][data-version="${activeVersion + 1}"]`)
    .waitFor({ timeout: 30_000 });
  step(`policy version ${activeVersion + 1} is active and in the history`);

  step(`passed: ${sent} requests sent meanwhile, ${failed} not answered 200; screenshots in ${shots}`);
  if (failed > 0) {
    throw new Error(`${failed} of ${sent} requests were not answered 200 while a node was faulted`);
  }
} finally {
  sending = false;
  await load;
  await browser.close();
}
