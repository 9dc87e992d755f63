import { db } from '~/server/db';
import { routeViewer } from '~/server/route-viewer';
import { buildComparison } from '~/server/services/compare/build-comparison';
import { buildExport } from '~/server/services/exports/build-export';
import { download, parseFormat, problem, slug } from '~/server/services/exports/http';
import { selectionFromQuery } from '~/server/services/exports/selection-from-query';

export const dynamic = 'force-dynamic';

/** CSV / JSON / offline HTML of a comparison; authorized by session and team like the procedures. */
export async function GET(req: Request) {
  const viewer = await routeViewer(req);
  if (viewer instanceof Response) return viewer;
  const { team } = viewer;
  if (!team) return problem(403, 'forbidden', 'you are not a member of any team');
  const q = new URL(req.url).searchParams;
  const format = parseFormat(q.get('format'));
  const selection = selectionFromQuery(q);
  if (!format || !selection)
    return problem(
      400,
      'bad_request',
      'needs format=csv|summary-csv|json|html and items=2..6 runs or cells',
    );
  try {
    const c = await buildComparison(db, team.id, selection, { maxPoints: 600 });
    const title = c.groups.map((g) => g.label).join(' vs ');
    const out = await buildExport(db, c, format, { title });
    return download(out.body, out.contentType, `${slug(title)}.${out.extension}`);
  } catch (e) {
    if (e instanceof Error && e.name === 'NotFoundError')
      return problem(404, 'not_found', e.message);
    throw e;
  }
}
