CREATE TABLE "time_logs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "time_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workspace_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"date" date NOT NULL,
	"hours" numeric(5, 2) NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "time_logs_hours_check" CHECK ("time_logs"."hours" > 0 and "time_logs"."hours" <= 24)
);
--> statement-breakpoint
CREATE TABLE "timers" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"task_id" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "task_history" DROP CONSTRAINT "task_history_action_check";--> statement-breakpoint
ALTER TABLE "stages" ADD COLUMN "default_estimate_hours" numeric(7, 2);--> statement-breakpoint
ALTER TABLE "task_history" ADD COLUMN "log_date" date;--> statement-breakpoint
ALTER TABLE "task_history" ADD COLUMN "log_hours" numeric(7, 2);--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "estimate_hours" numeric(7, 2);--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "hours_per_day" numeric(7, 2) DEFAULT 8 NOT NULL;--> statement-breakpoint
ALTER TABLE "time_logs" ADD CONSTRAINT "time_logs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_logs" ADD CONSTRAINT "time_logs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_logs" ADD CONSTRAINT "time_logs_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_logs" ADD CONSTRAINT "time_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timers" ADD CONSTRAINT "timers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timers" ADD CONSTRAINT "timers_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "time_logs_user_task_date_key" ON "time_logs" USING btree ("user_id","task_id","date");--> statement-breakpoint
CREATE INDEX "time_logs_user_date_idx" ON "time_logs" USING btree ("user_id","date");--> statement-breakpoint
CREATE INDEX "time_logs_workspace_date_idx" ON "time_logs" USING btree ("workspace_id","date");--> statement-breakpoint
CREATE INDEX "time_logs_project_date_idx" ON "time_logs" USING btree ("project_id","date");--> statement-breakpoint
CREATE INDEX "time_logs_task_id_idx" ON "time_logs" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "timers_task_id_idx" ON "timers" USING btree ("task_id");--> statement-breakpoint
ALTER TABLE "stages" ADD CONSTRAINT "stages_default_estimate_check" CHECK ("stages"."default_estimate_hours" is null or "stages"."default_estimate_hours" > 0);--> statement-breakpoint
ALTER TABLE "task_history" ADD CONSTRAINT "task_history_action_check" CHECK ("task_history"."action" in ('start', 'submit', 'accept', 'reject', 'set_status', 'set_reviewers', 'send_back', 'log_time'));--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_estimate_check" CHECK ("tasks"."estimate_hours" is null or "tasks"."estimate_hours" > 0);--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_hours_per_day_check" CHECK ("workspaces"."hours_per_day" between 1 and 24);