ALTER TABLE "projects" ADD COLUMN "units_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Kept by the triggers below (docs/decisions.md, entry 104): one UPDATE per statement and project,
-- whatever the number of units a statement inserts or deletes (batch creation, cascades).
UPDATE "projects" SET "units_count" = (SELECT count(*) FROM "units" WHERE "units"."project_id" = "projects"."id");--> statement-breakpoint
CREATE FUNCTION "units_count_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" SET "units_count" = "projects"."units_count" + added.n
  FROM (SELECT "project_id", count(*) AS n FROM new_units GROUP BY "project_id") AS added
  WHERE "projects"."id" = added."project_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "units_count_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" SET "units_count" = "projects"."units_count" - removed.n
  FROM (SELECT "project_id", count(*) AS n FROM old_units GROUP BY "project_id") AS removed
  WHERE "projects"."id" = removed."project_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "units_count_insert" AFTER INSERT ON "units" REFERENCING NEW TABLE AS new_units
  FOR EACH STATEMENT EXECUTE FUNCTION "units_count_added"();--> statement-breakpoint
CREATE TRIGGER "units_count_delete" AFTER DELETE ON "units" REFERENCING OLD TABLE AS old_units
  FOR EACH STATEMENT EXECUTE FUNCTION "units_count_removed"();
