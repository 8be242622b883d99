import sys

from workers.align.cli import main

sys.exit(main())
