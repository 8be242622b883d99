import sys

from workers.align.cli.main import main

sys.exit(main())
