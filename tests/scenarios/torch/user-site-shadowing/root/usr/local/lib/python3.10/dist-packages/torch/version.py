from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']
__version__ = '2.4.1+cu121'
debug = False
cuda: Optional[str] = '12.1'
git_version = 'ee1b6804381c57161c477caa380a840a84167676'
hip: Optional[str] = None
