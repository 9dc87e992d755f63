/** The crumbs above a page inside one target: Targets, then the target. */
export const targetCrumbs = (t: { id: string; name: string }) => [
  { href: '/targets', label: 'Targets' },
  { href: `/targets/${t.id}`, label: t.name },
];
