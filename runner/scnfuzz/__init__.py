"""scnfuzz: the command (`./scnfuzz`), its runs and reports. Standard library only."""
__version__ = "1"
