global using System;
global using System.Collections.Generic;
