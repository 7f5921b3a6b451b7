from tui.cli import main

main()
