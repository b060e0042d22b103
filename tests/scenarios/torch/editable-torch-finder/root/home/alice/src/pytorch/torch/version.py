from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']
__version__ = '2.7.0a0'
debug = False
cuda: Optional[str] = '12.4'
git_version = 'Unknown'
hip: Optional[str] = None
