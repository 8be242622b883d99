"""Word vectors trained on a project's own texts, stored in the database.

The database, not Django's file storage: workers on other machines share only PostgreSQL and
Redis with the web server, while the default storage is a folder on one machine. A project's
vectors are a few megabytes (17k words x 100 floats for the 22 public_meetings meetings), and a
worker loads them once per version and keeps them in memory.
"""

from django.db import models


class WordVectors(models.Model):
    """A project's word vectors: one training of gensim's Word2Vec on every sentence of its
    documents, pretrained vectors a lead uploaded, the words of the project found in the
    server's pretrained file (`TANDEM_WORD_VECTORS`), or lexical vectors of its words (nothing
    trained: stems weighted by their rarity in the project's language).

    `training_key` identifies the content: for a training, the engine's hash of the sentences
    and settings (the same texts and settings give the same key and, training being
    deterministic, the same vectors); for an upload, the file's hash; for the server's file,
    the file and the project's sentences; for lexical vectors, the language and the project's
    sentences. `data` is an .npz archive of the vocabulary and the vector matrix (no pickle).
    """

    class Origin(models.TextChoices):
        TRAINED = "trained"
        UPLOADED = "uploaded"
        SERVER_FILE = "server_file"
        LEXICAL = "lexical"

    project = models.ForeignKey(
        "projects.Project", on_delete=models.CASCADE, related_name="word_vectors"
    )
    training_key = models.CharField(max_length=64)
    origin = models.CharField(max_length=16, choices=Origin.choices, default=Origin.TRAINED)
    file_name = models.CharField(
        max_length=300, blank=True, help_text="The uploaded or server file's name."
    )
    settings = models.JSONField(help_text="The engine's TrainingSettings (trained vectors).")
    document_count = models.PositiveIntegerField()
    sentence_count = models.PositiveIntegerField()
    vocabulary_size = models.PositiveIntegerField()
    dimensions = models.PositiveIntegerField()
    data = models.BinaryField()
    trained_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project", "-trained_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["project", "training_key"], name="one_word_vectors_per_training_key"
            )
        ]

    def __str__(self) -> str:
        return f"word vectors {self.training_key[:8]} of project {self.project_id}"
