-- Tasks store their pipeline and their effective due date, so a pipeline's tasks and the task lists
-- are read in order through an index (docs/decisions.md, entry 108).
ALTER TABLE "pipelines" ADD COLUMN "tasks_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "pipeline_id" integer;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "effective_due" timestamp with time zone;--> statement-breakpoint
-- The stage's default due date for a task that became ready at `ready_at`: the fixed date (midnight
-- UTC, as the wire's YYYY-MM-DD parses), else that many days after it became ready, counted in UTC so
-- the result does not depend on the session's time zone (`effectiveAssignment` of the shared package).
CREATE FUNCTION "stage_due"(due_date date, due_days integer, ready_at timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(due_date::timestamp AT TIME ZONE 'UTC', (ready_at AT TIME ZONE 'UTC' + due_days * interval '1 day') AT TIME ZONE 'UTC')
$$;--> statement-breakpoint
UPDATE "tasks" SET "pipeline_id" = "stages"."pipeline_id",
  "effective_due" = CASE WHEN "tasks"."use_stage_defaults"
    THEN stage_due("stages"."default_due_date", "stages"."default_due_days", "tasks"."ready_at")
    ELSE "tasks"."due_date" END
FROM "stages" WHERE "stages"."id" = "tasks"."stage_id";--> statement-breakpoint
ALTER TABLE "tasks" ALTER COLUMN "pipeline_id" SET NOT NULL;--> statement-breakpoint
UPDATE "pipelines" SET "tasks_count" = (SELECT count(*) FROM "tasks" WHERE "tasks"."pipeline_id" = "pipelines"."id");--> statement-breakpoint
CREATE UNIQUE INDEX "stages_id_pipeline_id_key" ON "stages" USING btree ("id","pipeline_id");--> statement-breakpoint
ALTER TABLE "tasks" DROP CONSTRAINT "tasks_stage_id_stages_id_fk";--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_stage_pipeline_fk" FOREIGN KEY ("stage_id","pipeline_id") REFERENCES "public"."stages"("id","pipeline_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_pipeline_due_idx" ON "tasks" USING btree ("pipeline_id",coalesce("effective_due", 'infinity'::timestamptz),"id");--> statement-breakpoint
-- A task's change of due date, defaults or readiness recomputes its effective due date. Inserts set it
-- themselves (one statement for a batch of units; a trigger per row would cost a stage lookup each).
CREATE FUNCTION "task_due_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.use_stage_defaults THEN
    SELECT stage_due(s.default_due_date, s.default_due_days, NEW.ready_at) INTO NEW.effective_due
    FROM stages s WHERE s.id = NEW.stage_id;
  ELSE
    NEW.effective_due := NEW.due_date;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "task_due_update" BEFORE UPDATE OF "use_stage_defaults", "due_date", "ready_at" ON "tasks"
  FOR EACH ROW EXECUTE FUNCTION "task_due_changed"();--> statement-breakpoint
-- A stage's new default due date reaches the tasks that follow its defaults.
CREATE FUNCTION "stage_due_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tasks SET effective_due = stage_due(NEW.default_due_date, NEW.default_due_days, tasks.ready_at)
  WHERE tasks.stage_id = NEW.id AND tasks.use_stage_defaults;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "stage_due_update" AFTER UPDATE OF "default_due_date", "default_due_days" ON "stages"
  FOR EACH ROW WHEN (OLD.default_due_date IS DISTINCT FROM NEW.default_due_date
    OR OLD.default_due_days IS DISTINCT FROM NEW.default_due_days)
  EXECUTE FUNCTION "stage_due_changed"();--> statement-breakpoint
-- `pipelines.tasks_count`, kept like `units_count` (migration 0013): one UPDATE per statement.
CREATE FUNCTION "tasks_count_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  UPDATE "pipelines" SET "tasks_count" = "pipelines"."tasks_count" + sign * changed.n
  FROM (SELECT "pipeline_id", count(*) AS n FROM changed_tasks GROUP BY "pipeline_id") AS changed
  WHERE "pipelines"."id" = changed."pipeline_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "tasks_count_insert" AFTER INSERT ON "tasks" REFERENCING NEW TABLE AS changed_tasks
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_count_changed"();--> statement-breakpoint
CREATE TRIGGER "tasks_count_delete" AFTER DELETE ON "tasks" REFERENCING OLD TABLE AS changed_tasks
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_count_changed"();
