CREATE TABLE "task_assignees" (
	"task_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "task_assignees_task_id_user_id_pk" PRIMARY KEY("task_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "task_history" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"task_id" integer NOT NULL,
	"action" varchar(16) NOT NULL,
	"from_status" varchar(16),
	"to_status" varchar(16),
	"iteration" integer,
	"actor_id" integer,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_iterations" (
	"task_id" integer NOT NULL,
	"number" integer NOT NULL,
	"return_to" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"closed" boolean DEFAULT false NOT NULL,
	"outcome" varchar(16),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "task_iterations_task_id_number_pk" PRIMARY KEY("task_id","number"),
	CONSTRAINT "task_iterations_outcome_check" CHECK ("task_iterations"."outcome" is null or "task_iterations"."outcome" in ('done', 'edit', 'returned', 'overridden'))
);
--> statement-breakpoint
CREATE TABLE "task_reactions" (
	"task_id" integer NOT NULL,
	"iteration" integer NOT NULL,
	"user_id" integer NOT NULL,
	"verdict" varchar(8) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_reactions_task_id_iteration_user_id_pk" PRIMARY KEY("task_id","iteration","user_id"),
	CONSTRAINT "task_reactions_verdict_check" CHECK ("task_reactions"."verdict" in ('accept', 'reject'))
);
--> statement-breakpoint
CREATE TABLE "task_reviewers" (
	"task_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "task_reviewers_task_id_user_id_pk" PRIMARY KEY("task_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"unit_id" integer NOT NULL,
	"stage_id" integer NOT NULL,
	"status" varchar(16) NOT NULL,
	"use_stage_defaults" boolean DEFAULT true NOT NULL,
	"due_date" timestamp with time zone,
	"ready_at" timestamp with time zone,
	"iteration_number" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tasks_status_check" CHECK ("tasks"."status" in ('todo', 'in_progress', 'review', 'edit', 'done')),
	CONSTRAINT "tasks_iteration_number_check" CHECK ("tasks"."iteration_number" >= 0)
);
--> statement-breakpoint
CREATE TABLE "units" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "units_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"pipeline_id" integer NOT NULL,
	"name" varchar(200) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_history" ADD CONSTRAINT "task_history_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_history" ADD CONSTRAINT "task_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_iterations" ADD CONSTRAINT "task_iterations_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reactions" ADD CONSTRAINT "task_reactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reactions" ADD CONSTRAINT "task_reactions_task_id_iteration_task_iterations_task_id_number_fk" FOREIGN KEY ("task_id","iteration") REFERENCES "public"."task_iterations"("task_id","number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reviewers" ADD CONSTRAINT "task_reviewers_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reviewers" ADD CONSTRAINT "task_reviewers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_pipeline_id_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_assignees_user_id_idx" ON "task_assignees" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "task_history_task_id_created_at_idx" ON "task_history" USING btree ("task_id","created_at","id");--> statement-breakpoint
CREATE INDEX "task_reviewers_user_id_idx" ON "task_reviewers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_unit_id_stage_id_key" ON "tasks" USING btree ("unit_id","stage_id");--> statement-breakpoint
CREATE INDEX "tasks_stage_id_status_idx" ON "tasks" USING btree ("stage_id","status");--> statement-breakpoint
CREATE INDEX "units_pipeline_id_name_idx" ON "units" USING btree ("pipeline_id","name","id");--> statement-breakpoint
CREATE INDEX "units_pipeline_id_created_idx" ON "units" USING btree ("pipeline_id","created_at","id");--> statement-breakpoint
CREATE INDEX "units_project_id_idx" ON "units" USING btree ("project_id");