import { unitAndIntegration } from '../../vitest.shared.ts';

// *.k6.test.ts run bin/k6; the contract test starts the lab target on Postgres.
export default unitAndIntegration(['src/**/*.k6.test.ts', 'src/pool/lab-target-contract.test.ts']);
