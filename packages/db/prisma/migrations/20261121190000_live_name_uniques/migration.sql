-- Names of targets, pool configs and scenarios are unique among live rows only, so archiving
-- keeps a row's name (experiments, baselines and schedules that point at it still read right)
-- and frees the name for a new row. Before, archiving renamed pool configs to "<id>-archived"
-- and scenarios to "<name> (archived <id>)", and an archived target kept its name taken forever.

DROP INDEX "Target_teamId_name_key";
CREATE UNIQUE INDEX "Target_teamId_name_live_key" ON "Target"("teamId", "name") WHERE "archivedAt" IS NULL;

DROP INDEX "PoolConfig_targetId_name_key";
CREATE UNIQUE INDEX "PoolConfig_targetId_name_live_key" ON "PoolConfig"("targetId", "name") WHERE "archivedAt" IS NULL;

DROP INDEX "Scenario_teamId_name_key";
CREATE UNIQUE INDEX "Scenario_teamId_name_live_key" ON "Scenario"("teamId", "name") WHERE "archivedAt" IS NULL;

-- Give archived rows their names back: a pool config's from the newest run's snapshot of it,
-- a scenario's from its renamed form.
UPDATE "PoolConfig" p
SET "name" = COALESCE(
  (SELECT r."poolConfigSnapshot"->>'name' FROM "Run" r WHERE r."poolConfigId" = p."id" ORDER BY r."createdAt" DESC LIMIT 1),
  p."name")
WHERE p."archivedAt" IS NOT NULL AND p."name" = p."id" || '-archived';

UPDATE "Scenario" s
SET "name" = left(s."name", length(s."name") - length(' (archived ' || s."id" || ')'))
WHERE s."archivedAt" IS NOT NULL AND s."name" LIKE '% (archived ' || s."id" || ')';
