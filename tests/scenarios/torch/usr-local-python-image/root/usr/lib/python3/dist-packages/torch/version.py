from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']
__version__ = '1.13.0a0'
debug = False
cuda: Optional[str] = None
git_version = '0000000000000000000000000000000000000000'
hip: Optional[str] = None
