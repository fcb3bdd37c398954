"""ConfigurableResources: thin adapters over OpenReview, the browser, storage and Ray."""
from resources.browser import BrowserResource
from resources.openreview import OpenReviewResource
from resources.ray import RayResource
from resources.storage import StorageResource

__all__ = ["BrowserResource", "OpenReviewResource", "RayResource", "StorageResource"]
