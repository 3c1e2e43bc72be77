"""`python -m docextract ...` is `docextract ...`; torchrun starts training processes this way (`torchrun -m docextract`)."""

from docextract.cli import main

if __name__ == "__main__":
    main()
