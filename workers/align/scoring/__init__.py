"""Sentence-pair similarity: tf-idf + LSA, ROUGE and word embeddings, over sliding windows."""
