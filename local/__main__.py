"""`python -m local`: start the whole platform on localhost."""

from local.stack import main

if __name__ == "__main__":  # spawned Lambda environments import this module too
    main()
