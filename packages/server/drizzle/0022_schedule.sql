CREATE TABLE "calendar_feeds" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"token_hash" varchar(128) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "days_off" (
	"workspace_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"date" date NOT NULL,
	CONSTRAINT "days_off_workspace_id_user_id_date_pk" PRIMARY KEY("workspace_id","user_id","date")
);
--> statement-breakpoint
CREATE TABLE "holidays" (
	"workspace_id" integer NOT NULL,
	"date" date NOT NULL,
	"name" varchar(200) DEFAULT '' NOT NULL,
	CONSTRAINT "holidays_workspace_id_date_pk" PRIMARY KEY("workspace_id","date")
);
--> statement-breakpoint
CREATE TABLE "milestone_units" (
	"milestone_id" integer NOT NULL,
	"unit_id" integer NOT NULL,
	CONSTRAINT "milestone_units_milestone_id_unit_id_pk" PRIMARY KEY("milestone_id","unit_id")
);
--> statement-breakpoint
CREATE TABLE "milestones" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "milestones_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"name" varchar(200) NOT NULL,
	"date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stages" ADD COLUMN "default_duration_days" integer;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "start_date" date;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "working_days" integer[] DEFAULT '{1,2,3,4,5}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "days_off" ADD CONSTRAINT "days_off_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "days_off" ADD CONSTRAINT "days_off_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "milestone_units" ADD CONSTRAINT "milestone_units_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "milestone_units" ADD CONSTRAINT "milestone_units_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "milestones" ADD CONSTRAINT "milestones_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_token_hash_key" ON "calendar_feeds" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "days_off_user_id_idx" ON "days_off" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "milestone_units_unit_id_idx" ON "milestone_units" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "milestones_project_id_date_idx" ON "milestones" USING btree ("project_id","date");--> statement-breakpoint
ALTER TABLE "stages" ADD CONSTRAINT "stages_default_duration_check" CHECK ("stages"."default_duration_days" is null or "stages"."default_duration_days" >= 0);--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_working_days_check" CHECK (cardinality("workspaces"."working_days") between 1 and 7 and "workspaces"."working_days" <@ '{1,2,3,4,5,6,7}'::integer[]);