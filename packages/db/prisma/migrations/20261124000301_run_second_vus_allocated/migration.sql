-- k6's vus_max (allocated VUs) per second: arrival-rate runs showed "max VUs 0" and a flat VUs chart
-- because their active-VU gauge reads 0 between iterations.
ALTER TABLE "RunSecond" ADD COLUMN "vusAllocated" INTEGER;
