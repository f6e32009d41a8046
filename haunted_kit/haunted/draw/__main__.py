from .svg import main

raise SystemExit(main())
