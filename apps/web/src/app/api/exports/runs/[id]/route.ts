import { db } from '~/server/db';
import { routeViewer } from '~/server/route-viewer';
import { buildComparison } from '~/server/services/compare/build-comparison';
import { buildExport } from '~/server/services/exports/build-export';
import { download, parseFormat, problem, slug } from '~/server/services/exports/http';
import { isId } from '~/lib/schemas/ids';

export const dynamic = 'force-dynamic';

/** One run's per-second series (csv), summary (summary-csv), both (json) or report (html). */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const viewer = await routeViewer(req);
  if (viewer instanceof Response) return viewer;
  const { team } = viewer;
  const format = parseFormat(new URL(req.url).searchParams.get('format'));
  if (!format) return problem(400, 'bad_request', 'needs format=csv|summary-csv|json|html');
  if (!team || !isId(id)) return problem(404, 'not_found', 'run not found');
  try {
    const c = await buildComparison(
      db,
      team.id,
      { items: [{ kind: 'run', runId: id }] },
      { maxPoints: 600 },
    );
    const title = `${c.groups[0]!.label} · ${c.groups[0]!.scenarioName}`;
    const out = await buildExport(db, c, format, { title });
    return download(out.body, out.contentType, `${slug(title)}.${out.extension}`);
  } catch (e) {
    if (e instanceof Error && e.name === 'NotFoundError')
      return problem(404, 'not_found', 'run not found');
    throw e;
  }
}
