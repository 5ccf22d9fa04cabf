"""Switch every hub library to offline mode before any of them is imported.

edgerag runs on air-gapped machines: nothing may try the network. Imported first by
``edgerag/__init__.py``; values a user already set are kept.
"""

import os

for _var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE", "HF_HUB_DISABLE_TELEMETRY"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Library chatter (weight-loading bars, sequence-length warnings from our own window checks)
# would bury edgerag's own progress bars and messages.
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
