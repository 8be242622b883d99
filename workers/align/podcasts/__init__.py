"""The podcast summarization paper's corpus building: fixed time windows of a timed
transcript, creator descriptions cleaned into references, and each window's salience label
by ROUGE-2 recall against them."""
