-- Natural order for names ("Shot 2" before "Shot 10"), docs/decisions.md entry 52. ICU's
-- '@colNumeric=yes' form: PGlite's ICU ignores the BCP 47 spelling 'und-u-kn-true'.
CREATE COLLATION IF NOT EXISTS "natural_sort" (provider = icu, locale = 'und@colNumeric=yes');--> statement-breakpoint
ALTER TABLE "pipelines" ALTER COLUMN "name" SET DATA TYPE varchar(200) collate "natural_sort";--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "name" SET DATA TYPE varchar(200) collate "natural_sort";--> statement-breakpoint
ALTER TABLE "units" ALTER COLUMN "name" SET DATA TYPE varchar(200) collate "natural_sort";--> statement-breakpoint
ALTER TABLE "workspaces" ALTER COLUMN "name" SET DATA TYPE varchar(200) collate "natural_sort";