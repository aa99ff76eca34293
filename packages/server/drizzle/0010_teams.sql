CREATE TABLE "stage_default_assignee_teams" (
	"stage_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	CONSTRAINT "stage_default_assignee_teams_stage_id_team_id_pk" PRIMARY KEY("stage_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "stage_default_reviewer_teams" (
	"stage_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	CONSTRAINT "stage_default_reviewer_teams_stage_id_team_id_pk" PRIMARY KEY("stage_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "stage_team_rules" (
	"stage_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"required" integer NOT NULL,
	CONSTRAINT "stage_team_rules_stage_id_team_id_pk" PRIMARY KEY("stage_id","team_id"),
	CONSTRAINT "stage_team_rules_required_check" CHECK ("stage_team_rules"."required" >= 1)
);
--> statement-breakpoint
CREATE TABLE "task_assignee_teams" (
	"task_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	CONSTRAINT "task_assignee_teams_task_id_team_id_pk" PRIMARY KEY("task_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "task_reviewer_teams" (
	"task_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	CONSTRAINT "task_reviewer_teams_task_id_team_id_pk" PRIMARY KEY("task_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"team_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "team_members_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "teams_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workspace_id" integer NOT NULL,
	"name" varchar(200) collate "natural_sort" NOT NULL,
	"color" varchar(7) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stages" ADD COLUMN "required_approvals" integer;--> statement-breakpoint
ALTER TABLE "stages" ADD COLUMN "allow_self_review" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stage_default_assignee_teams" ADD CONSTRAINT "stage_default_assignee_teams_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_default_assignee_teams" ADD CONSTRAINT "stage_default_assignee_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_default_reviewer_teams" ADD CONSTRAINT "stage_default_reviewer_teams_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_default_reviewer_teams" ADD CONSTRAINT "stage_default_reviewer_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_team_rules" ADD CONSTRAINT "stage_team_rules_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_team_rules" ADD CONSTRAINT "stage_team_rules_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_assignee_teams" ADD CONSTRAINT "task_assignee_teams_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_assignee_teams" ADD CONSTRAINT "task_assignee_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reviewer_teams" ADD CONSTRAINT "task_reviewer_teams_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reviewer_teams" ADD CONSTRAINT "task_reviewer_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stage_default_assignee_teams_team_id_idx" ON "stage_default_assignee_teams" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "stage_default_reviewer_teams_team_id_idx" ON "stage_default_reviewer_teams" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "stage_team_rules_team_id_idx" ON "stage_team_rules" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "task_assignee_teams_team_id_idx" ON "task_assignee_teams" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "task_reviewer_teams_team_id_idx" ON "task_reviewer_teams" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "team_members_user_id_idx" ON "team_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_workspace_id_name_key" ON "teams" USING btree ("workspace_id","name");--> statement-breakpoint
ALTER TABLE "stages" ADD CONSTRAINT "stages_required_approvals_check" CHECK ("stages"."required_approvals" is null or "stages"."required_approvals" >= 1);