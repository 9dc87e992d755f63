import { ScriptEditor } from '~/components/scenarios/script-editor';
import { PageHeader } from '~/components/ui/page-header';

export const metadata = { title: 'Import a k6 script' };

export default function ImportScriptPage() {
  return (
    <>
      <PageHeader
        crumbs={[{ href: '/scenarios', label: 'Scenarios' }]}
        title="Import a k6 script"
        description="Bring the k6 script you already have: PoolBench checks it in a sandbox, shows what it will run, and runs it against your targets like any scenario."
      />
      <ScriptEditor />
    </>
  );
}
