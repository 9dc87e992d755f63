import { expect, test } from '@playwright/test';
import { SHOTS, signUpUi } from './helpers';

// The whole token lifecycle through the settings UI, then the token against the REST API.
test('an admin creates an API token (shown once), uses it, sees last use and revokes it', async ({
  page,
  request,
  baseURL,
}) => {
  await signUpUi(page, 'Token Admin');
  await page.goto('/settings');
  const card = page.getByTestId('api-tokens-card');
  await card.getByLabel('Name').fill('github-actions');
  await card.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByTestId('new-api-token');
  await expect(shown).toContainText('will not be shown again');
  const token = (await shown.locator('pre code').textContent())!.trim();
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
});
