import sys

from puzzlecomp.cli.main import main

sys.exit(main())
