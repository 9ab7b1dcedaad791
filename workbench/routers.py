class DatasetsRouter:
    """Django's own tables never go to the "datasets" alias; it holds only session datasets (raw SQL)."""

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db != "datasets"

    def db_for_read(self, model, **hints):
        return "default"

    def db_for_write(self, model, **hints):
        return "default"
