-- The target's HTTP client pool towards its upstream, sampled like the database pool: seed 000's
-- POST /upload waits on the lab target's blob store pool, which the Pool and DB charts never showed.
ALTER TABLE "ResourceSample" ADD COLUMN "upstreamOpen" INTEGER;
ALTER TABLE "ResourceSample" ADD COLUMN "upstreamInUse" INTEGER;
ALTER TABLE "ResourceSample" ADD COLUMN "upstreamMax" INTEGER;
ALTER TABLE "ResourceSample" ADD COLUMN "upstreamWaitMs" DOUBLE PRECISION;
ALTER TABLE "ResourceSample" ADD COLUMN "upstreamConnsCreated" INTEGER;
