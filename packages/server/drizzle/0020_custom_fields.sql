CREATE TABLE "field_definitions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "field_definitions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"key" varchar(30) NOT NULL,
	"name" varchar(100) NOT NULL,
	"kind" varchar(16) NOT NULL,
	"applies_to" varchar(8) DEFAULT 'unit' NOT NULL,
	"stage_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"default_value" jsonb,
	"unit" varchar(20) DEFAULT '' NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "field_definitions_kind_check" CHECK ("field_definitions"."kind" in ('text', 'long_text', 'number', 'date', 'select', 'multi_select', 'person', 'url', 'checkbox')),
	CONSTRAINT "field_definitions_applies_to_check" CHECK ("field_definitions"."applies_to" in ('unit', 'task'))
);
--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "field_definitions" ADD CONSTRAINT "field_definitions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "field_definitions_project_key_key" ON "field_definitions" USING btree ("project_id","key");--> statement-breakpoint
CREATE INDEX "units_fields_idx" ON "units" USING gin ("fields" jsonb_path_ops);