CREATE TABLE "pipelines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pipelines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"name" varchar(200) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"layout" varchar(16) DEFAULT 'vertical' NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pipelines_layout_check" CHECK ("pipelines"."layout" in ('horizontal', 'vertical'))
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "projects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workspace_id" integer NOT NULL,
	"name" varchar(200) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"review_mode" varchar(16) DEFAULT 'each_immediate' NOT NULL,
	"skip_review_if_no_reviewers" boolean DEFAULT false NOT NULL,
	"accept_edit_as_done" boolean DEFAULT false NOT NULL,
	"todo_enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_review_mode_check" CHECK ("projects"."review_mode" in ('each_immediate', 'each_wait', 'any'))
);
--> statement-breakpoint
CREATE TABLE "stage_default_assignees" (
	"stage_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "stage_default_assignees_stage_id_user_id_pk" PRIMARY KEY("stage_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "stage_default_reviewers" (
	"stage_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "stage_default_reviewers_stage_id_user_id_pk" PRIMARY KEY("stage_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "stage_edges" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stage_edges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"pipeline_id" integer NOT NULL,
	"source_id" integer NOT NULL,
	"target_id" integer NOT NULL,
	CONSTRAINT "stage_edges_no_self_loop_check" CHECK ("stage_edges"."source_id" <> "stage_edges"."target_id")
);
--> statement-breakpoint
CREATE TABLE "stages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"pipeline_id" integer NOT NULL,
	"kind" varchar(8) NOT NULL,
	"name" varchar(200) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"x" double precision DEFAULT 0 NOT NULL,
	"y" double precision DEFAULT 0 NOT NULL,
	"review_mode" varchar(16) DEFAULT 'each_immediate' NOT NULL,
	"skip_review_if_no_reviewers" boolean DEFAULT false NOT NULL,
	"accept_edit_as_done" boolean DEFAULT false NOT NULL,
	"todo_enabled" boolean DEFAULT true NOT NULL,
	"default_due_days" integer,
	"default_due_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stages_kind_check" CHECK ("stages"."kind" in ('root', 'end', 'stage')),
	CONSTRAINT "stages_review_mode_check" CHECK ("stages"."review_mode" in ('each_immediate', 'each_wait', 'any')),
	CONSTRAINT "stages_due_days_check" CHECK ("stages"."default_due_days" is null or "stages"."default_due_days" >= 0),
	CONSTRAINT "stages_due_one_kind_check" CHECK ("stages"."default_due_days" is null or "stages"."default_due_date" is null)
);
--> statement-breakpoint
ALTER TABLE "pipelines" ADD CONSTRAINT "pipelines_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_default_assignees" ADD CONSTRAINT "stage_default_assignees_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_default_assignees" ADD CONSTRAINT "stage_default_assignees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_default_reviewers" ADD CONSTRAINT "stage_default_reviewers_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_default_reviewers" ADD CONSTRAINT "stage_default_reviewers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_edges" ADD CONSTRAINT "stage_edges_pipeline_id_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_edges" ADD CONSTRAINT "stage_edges_source_id_stages_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_edges" ADD CONSTRAINT "stage_edges_target_id_stages_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stages" ADD CONSTRAINT "stages_pipeline_id_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pipelines_project_id_idx" ON "pipelines" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "projects_workspace_id_idx" ON "projects" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "stage_default_assignees_user_id_idx" ON "stage_default_assignees" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "stage_default_reviewers_user_id_idx" ON "stage_default_reviewers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stage_edges_source_target_key" ON "stage_edges" USING btree ("source_id","target_id");--> statement-breakpoint
CREATE INDEX "stage_edges_pipeline_id_idx" ON "stage_edges" USING btree ("pipeline_id");--> statement-breakpoint
CREATE INDEX "stage_edges_target_id_idx" ON "stage_edges" USING btree ("target_id");--> statement-breakpoint
CREATE INDEX "stages_pipeline_id_idx" ON "stages" USING btree ("pipeline_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stages_one_root_end_key" ON "stages" USING btree ("pipeline_id","kind") WHERE kind in ('root', 'end');