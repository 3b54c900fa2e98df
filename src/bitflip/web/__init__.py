"""The web app: a FastAPI server with a JSON API and a page to play, get hints and analyse.

Import :func:`bitflip.web.app.create_app`; ``bitflip play`` serves it. Needs the ``web`` extra.
"""
