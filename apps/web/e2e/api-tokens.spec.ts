import { expect, test, type Page } from '@playwright/test';
import { SHOTS, signUpUi } from './helpers';

/** A new account creates a token in Settings: the card that shows it once, and the token. */
async function createToken(page: Page, who: string, name: string) {
  await signUpUi(page, who);
  await page.goto('/settings');
  const card = page.getByTestId('api-tokens-card');
  await card.getByLabel('Name').fill(name);
  await card.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByTestId('new-api-token');
  const token = (await shown.locator('pre code').textContent())!.trim();
  return { shown, token };
}

// The whole token lifecycle through the settings UI, then the token against the REST API.
test('an admin creates an API token (shown once), uses it, sees last use and revokes it', async ({
  page,
  request,
  baseURL,
}) => {
  const { shown, token } = await createToken(page, 'Token Admin', 'github-actions');
  await expect(shown).toContainText('will not be shown again');
  expect(token).toMatch(/^pb_[0-9A-Za-z]{38}$/);
  await page.screenshot({ path: `${SHOTS}/api-tokens-created.png`, fullPage: true });

  const spec = await request.get(`${baseURL}/api/openapi.json`);
  expect(spec.ok()).toBe(true);
  const res = await request.get(`${baseURL}/api/v1/runs/nope`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(404);
  expect(res.headers()['content-type']).toBe('application/problem+json');

  await page.reload();
  const row = page.getByRole('row').filter({ hasText: 'github-actions' });
  await expect(row).toContainText(`${token.slice(0, 7)}…${token.slice(-4)}`);
  // the creator and their current role: a token only does what its creator still may
  await expect(row.getByTestId('token-creator')).toContainText('owner');
  // last used: the REST call above was recorded (columns: name, token, scopes, created by, last used, expires)
  await expect(row.getByRole('cell').nth(4)).not.toHaveText('never');
  await expect(page.getByText(token)).toHaveCount(0); // never shown again
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('revoked');
  const after = await request.get(`${baseURL}/api/v1/runs/nope`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(after.status()).toBe(401);
  expect((await after.json()).code).toBe('token_revoked');

  // the first token expires in the default 90 days; one made to last forever says "never"
  await expect(row.getByRole('cell').nth(5)).not.toHaveText('never');
  const card = page.getByTestId('api-tokens-card');
  await card.getByLabel('Name').fill('nightly-forever');
  await card.getByLabel('Expires').selectOption({ label: 'never' });
  await card.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByTestId('new-api-token')).toContainText('nightly-forever');
  const forever = page.getByRole('row').filter({ hasText: 'nightly-forever' });
  await expect(forever.getByRole('cell').nth(5)).toHaveText('never');
});

/**
 * Opened over plain http at a LAN address (a self-hosted install), the browser has no Clipboard
 * API. The token is shown once, so its Copy button must still copy, and must say so when nothing
 * could, never "Copied" for a copy that did not happen.
 */
test("the new token's Copy copies without the Clipboard API, and says so when nothing could", async ({
  page,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    const w = window as unknown as { copied: string[]; refuse: boolean };
    w.copied = [];
    w.refuse = false;
    // what the browser's copy command would have put on the clipboard
    document.execCommand = (command: string) => {
      const area = document.activeElement;
      if (command !== 'copy' || w.refuse || !(area instanceof HTMLTextAreaElement)) return false;
      w.copied.push(area.value.slice(area.selectionStart, area.selectionEnd));
      return true;
    };
  });
  const { shown, token } = await createToken(page, 'Copy Without Clipboard', 'lan-install');
  await shown.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { copied: string[] }).copied)).toEqual([
    token,
  ]);
  await page.evaluate(() => ((window as unknown as { refuse: boolean }).refuse = true));
  await shown.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(
    shown.getByRole('button', { name: 'Copy failed: select the text and copy it' }),
  ).toBeVisible();
});
