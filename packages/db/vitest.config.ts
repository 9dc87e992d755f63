import { unitAndIntegration } from '../../vitest.shared.ts';

export default unitAndIntegration([
  'src/client.test.ts',
  'src/drift.test.ts',
  'src/json/json-columns.test.ts',
  'src/live-names.test.ts',
  'src/migrate.test.ts',
  'src/storage-maintenance.test.ts',
]);
