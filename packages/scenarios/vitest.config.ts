import { unitAndIntegration } from '../../vitest.shared.ts';

// *.k6.test.ts run bin/k6; the contract test starts the lab target on Postgres. The generated
// scripts' test judges the rates k6 reached, so it runs alone.
export default unitAndIntegration(
  ['src/**/*.k6.test.ts', 'src/pool/lab-target-contract.test.ts'],
  undefined,
  ['src/generate-scenario.k6.test.ts'],
);
