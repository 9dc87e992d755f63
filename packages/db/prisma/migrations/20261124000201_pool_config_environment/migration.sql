-- A pool config may override its managed target's environment (blob store delay, database link
-- RTT, role connection limit, CPU limit, balancing), validated by LabEnvironmentSchema in
-- @poolbench/scenarios. NULL = the target's settings as they are.
ALTER TABLE "PoolConfig" ADD COLUMN "environment" JSONB;
