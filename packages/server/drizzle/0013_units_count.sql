ALTER TABLE "pipelines" ADD COLUMN "units_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "units_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Kept by the triggers below (docs/decisions.md, entry 104): one UPDATE per statement and project
-- (and pipeline), whatever the number of units a statement inserts or deletes (batch creation, cascades).
UPDATE "projects" SET "units_count" = (SELECT count(*) FROM "units" WHERE "units"."project_id" = "projects"."id");--> statement-breakpoint
UPDATE "pipelines" SET "units_count" = (SELECT count(*) FROM "units" WHERE "units"."pipeline_id" = "pipelines"."id");--> statement-breakpoint
CREATE FUNCTION "units_count_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  -- `changed_units`: the transition table of both triggers (the inserted or the deleted rows).
  UPDATE "projects" SET "units_count" = "projects"."units_count" + sign * changed.n
  FROM (SELECT "project_id", count(*) AS n FROM changed_units GROUP BY "project_id") AS changed
  WHERE "projects"."id" = changed."project_id";
  UPDATE "pipelines" SET "units_count" = "pipelines"."units_count" + sign * changed.n
  FROM (SELECT "pipeline_id", count(*) AS n FROM changed_units GROUP BY "pipeline_id") AS changed
  WHERE "pipelines"."id" = changed."pipeline_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "units_count_insert" AFTER INSERT ON "units" REFERENCING NEW TABLE AS changed_units
  FOR EACH STATEMENT EXECUTE FUNCTION "units_count_changed"();--> statement-breakpoint
CREATE TRIGGER "units_count_delete" AFTER DELETE ON "units" REFERENCING OLD TABLE AS changed_units
  FOR EACH STATEMENT EXECUTE FUNCTION "units_count_changed"();
